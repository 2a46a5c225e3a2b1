/**
 * Core's `EmbeddingStore` v1 on the PostgreSQL store: tool-selection's vectors kept by model key and
 * document hash, so that a replica starting on a database its peers have filled embeds nothing it
 * has not changed. Vectors are float32 little-endian `bytea`: compact, and the same bytes on every
 * platform.
 */

import type { EmbeddingStore } from '@switchboard/core';
import type { PostgresDatabase } from './postgres-connection.js';

/** Rows per statement when saving many vectors (keeps each statement's parameters small). */
const saveBatch = 500;

/** Creates the embedding store of a PostgreSQL registry store (`schema`: quoted schema name). */
export function createPostgresEmbeddingStore(
  database: () => Promise<PostgresDatabase>,
  schema: string,
): EmbeddingStore {
  const table = `${schema}.embeddings`;
  return {
    specificationVersion: 'v1',
    async load(modelKey, keys) {
      const found = new Map<string, Float32Array>();
      if (keys.length === 0) return found;
      const result = await (await database()).query(
        `SELECT content_key, dimensions, vector FROM ${table} WHERE model_key = $1 AND content_key = ANY($2::text[])`,
        [modelKey, [...keys]],
      );
      for (const row of result.rows) {
        const vector = decodeVector(row.vector as Buffer);
        // A row cut short (or written by something else) is skipped: the document is embedded again.
        if (vector.length === Number(row.dimensions)) found.set(row.content_key as string, vector);
      }
      return found;
    },
    async save(modelKey, entries) {
      const all = [...entries];
      if (all.length === 0) return;
      const db = await database();
      for (let start = 0; start < all.length; start += saveBatch) {
        const batch = all.slice(start, start + saveBatch);
        await db.query(
          `INSERT INTO ${table} (model_key, content_key, dimensions, vector, updated_at)
           SELECT $1, key, dims, vec, now() FROM unnest($2::text[], $3::integer[], $4::bytea[]) AS t(key, dims, vec)
           ON CONFLICT (model_key, content_key) DO UPDATE SET
             dimensions = excluded.dimensions, vector = excluded.vector, updated_at = excluded.updated_at`,
          [
            modelKey,
            batch.map(([key]) => key),
            batch.map(([, vector]) => vector.length),
            batch.map(([, vector]) => encodeVector(vector)),
          ],
        );
      }
    },
  };
}

function encodeVector(vector: Float32Array): Buffer {
  const bytes = Buffer.allocUnsafe(vector.length * 4);
  for (let index = 0; index < vector.length; index++) bytes.writeFloatLE(vector[index] as number, index * 4);
  return bytes;
}

function decodeVector(bytes: Buffer): Float32Array {
  const vector = new Float32Array(Math.floor(bytes.length / 4));
  for (let index = 0; index < vector.length; index++) vector[index] = bytes.readFloatLE(index * 4);
  return vector;
}
