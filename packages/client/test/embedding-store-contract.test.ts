/**
 * The EmbeddingStore v1 contract, run against core's in-memory store (the one tool-selection's
 * warm-start test uses) and the PostgreSQL store's, so the two answer alike.
 */
import { createMemoryEmbeddingStore, type EmbeddingStore } from '@switchboard/core';
import { afterEach, describe, expect, it } from 'vitest';
import { openPostgresStore, type PostgresRegistryStore } from '../src/postgres-store/index.js';
import { dropSchemas, postgresUrl, randomSchema } from './helpers/postgres.js';

interface Harness {
  /** Two views of one fresh backing store (two replicas, or one store twice). */
  pair(): Promise<[EmbeddingStore, EmbeddingStore]>;
  cleanup(): Promise<void>;
}

const opened: PostgresRegistryStore[] = [];
const schemas: string[] = [];

const harnesses: Record<string, Harness> = {
  'in memory (core)': {
    async pair() {
      const store = createMemoryEmbeddingStore();
      return [store, store];
    },
    async cleanup() {},
  },
  PostgreSQL: {
    async pair() {
      const schema = randomSchema();
      schemas.push(schema);
      const first = await openPostgresStore({ connectionString: postgresUrl, schema });
      const second = await openPostgresStore({ connectionString: postgresUrl, schema });
      opened.push(first, second);
      return [first.embeddingStore, second.embeddingStore];
    },
    async cleanup() {
      for (const store of opened.splice(0)) await store.close();
      await dropSchemas(schemas.splice(0));
    },
  },
};

for (const [name, harness] of Object.entries(harnesses)) {
  describe(`EmbeddingStore v1 contract: ${name}`, () => {
    afterEach(() => harness.cleanup());

    it('answers the vectors saved, by model key and content key, and only those', async () => {
      const [writer, reader] = await harness.pair();
      expect(writer.specificationVersion).toBe('v1');
      const vectors = new Map([
        ['hash-a', new Float32Array([0.1, -0.2, 0.3])],
        ['hash-b', new Float32Array([1, 0, 0])],
      ]);
      await writer.save('model@3', vectors);
      await writer.save('other-model@3', new Map([['hash-a', new Float32Array([9, 9, 9])]]));
      const found = await reader.load('model@3', ['hash-a', 'hash-b', 'hash-missing']);
      expect([...found.keys()].sort()).toEqual(['hash-a', 'hash-b']);
      expect(found.get('hash-a')).toBeInstanceOf(Float32Array);
      expect(Array.from(found.get('hash-a') ?? [])).toEqual(Array.from(vectors.get('hash-a') ?? []));
      expect((await reader.load('model@3', [])).size).toBe(0);
      expect((await reader.load('unknown-model@3', ['hash-a'])).size).toBe(0);

      await reader.save('model@3', new Map([['hash-a', new Float32Array([0.5, 0.5, 0.5])]]));
      expect(Array.from((await writer.load('model@3', ['hash-a'])).get('hash-a') ?? [])).toEqual([
        0.5, 0.5, 0.5,
      ]);
      expect(Array.from((await writer.load('other-model@3', ['hash-a'])).get('hash-a') ?? [])).toEqual([
        9, 9, 9,
      ]);
    });

    it('keeps what was saved, not the caller’s array changed afterwards', async () => {
      const [writer, reader] = await harness.pair();
      const vector = new Float32Array([0.25, 0.75]);
      await writer.save('m@2', new Map([['k', vector]]));
      vector[0] = 42;
      const loaded = (await reader.load('m@2', ['k'])).get('k');
      expect(Array.from(loaded ?? [])).toEqual([0.25, 0.75]);
      // Changing what was loaded changes nothing stored either.
      if (loaded) loaded[1] = 42;
      expect(Array.from((await reader.load('m@2', ['k'])).get('k') ?? [])).toEqual([0.25, 0.75]);
    });

    it('saves and loads more vectors than one statement takes', async () => {
      const [writer, reader] = await harness.pair();
      const many = new Map(
        Array.from({ length: 1200 }, (_, index) => [`h${index}`, new Float32Array([index, 1])]),
      );
      await writer.save('m@2', many);
      const found = await reader.load('m@2', [...many.keys()]);
      expect(found.size).toBe(1200);
      expect(Array.from(found.get('h1199') ?? [])).toEqual([1199, 1]);
    });
  });
}
