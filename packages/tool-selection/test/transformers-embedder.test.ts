import { createServer, type IncomingMessage } from 'node:http';
import type { Logger } from '@switchboard/core';
import { SwitchboardError } from '@switchboard/core';
import { freePort, listenOnRandomPort } from '@switchboard/test-helpers';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createOfflineEmbedder,
  createTransformersEmbedder,
  OFFLINE_MODEL_DIMS,
  OFFLINE_MODEL_ID,
  offlineDefaultModel,
  ToolSelectionErrorCode,
} from '../src/index.js';
import { createFixtureEmbedder, createFixtureModel } from './helpers/fixture-embedder.js';

const model = createFixtureModel();
afterAll(() => model.cleanup());

const cosine = (a: Float32Array, b: Float32Array) =>
  a.reduce((sum, value, index) => sum + value * (b[index] as number), 0);

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const record = (first: unknown, message?: string) => {
    lines.push(typeof first === 'string' ? first : (message ?? ''));
  };
  return { lines, debug: record, info: record, warn: record, error: record };
}

describe('createTransformersEmbedder', () => {
  it('loads a local model and returns unit vectors that carry meaning', async () => {
    const embedder = createFixtureEmbedder(model);
    const info = await embedder.load();
    expect(info).toEqual({ modelId: model.modelId, dimensions: 8, requestedModelId: model.modelId });
    expect(embedder.specificationVersion).toBe('v1');
    expect(embedder.dimensions).toBe(8);
    const [folder, file, sum] = await embedder.embed([
      'list the folder contents',
      'read a file from disk',
      'add two numbers',
    ]);
    expect(Math.hypot(...(folder as Float32Array))).toBeCloseTo(1, 5);
    expect(cosine(folder as Float32Array, file as Float32Array)).toBeGreaterThan(0.9);
    expect(cosine(folder as Float32Array, sum as Float32Array)).toBeLessThan(0.3);
  });

  it('embeds a text of only unknown words (or nothing) as a zero vector, never NaN', async () => {
    const embedder = createFixtureEmbedder(model);
    const vectors = await embedder.embed(['qwxz vbnmt', '', '!!!']);
    for (const vector of vectors) {
      expect(vector).toHaveLength(8);
      expect([...vector].every((value) => value === 0)).toBe(true);
    }
  });

  it('embeds in batches, in order (batched by length, answered in the order asked)', async () => {
    const embedder = createFixtureEmbedder(model, { batchSize: 2 });
    // Lengths out of order, so the length-sorted batches differ from the given order.
    const texts = [
      'read the file at a path',
      'sum',
      'store a memory entity',
      'echo',
      'sleep a while then echo',
    ];
    const batched = await embedder.embed(texts);
    const single = await Promise.all(
      texts.map(async (text) => (await embedder.embed([text]))[0] as Float32Array),
    );
    for (const [position, vector] of batched.entries()) {
      expect(cosine(vector, single[position] as Float32Array)).toBeCloseTo(1, 5);
    }
  });

  it('honours an aborted signal', async () => {
    const embedder = createFixtureEmbedder(model);
    await expect(embedder.embed(['file'], { signal: AbortSignal.abort() })).rejects.toThrow();
  });

  it('falls back to a local model with one log line when the configured model cannot load', async () => {
    const logger = recordingLogger();
    const embedder = createTransformersEmbedder({
      model: 'no-such-org/no-such-model',
      allowRemote: false,
      localModelPath: model.root,
      fallback: { modelId: model.modelId, localModelPath: model.root, quantized: true },
      logger,
    });
    const info = await embedder.load();
    expect(info.modelId).toBe(model.modelId);
    expect(info.requestedModelId).toBe('no-such-org/no-such-model');
    expect(info.fallbackReason).toMatch(/not found|could not|locally/i);
    expect(embedder.modelId).toBe(model.modelId);
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]).toContain('no-such-org/no-such-model');
    expect(logger.lines[0]).toContain(model.modelId);
    const [vector] = await embedder.embed(['read a file']);
    expect(vector).toHaveLength(8);
    await embedder.load();
    expect(logger.lines).toHaveLength(1);
  });

  it('fails with a clear error when neither the model nor a fallback can load', async () => {
    const embedder = createTransformersEmbedder({
      model: 'no-such-org/no-such-model',
      allowRemote: false,
      fallback: false,
    });
    const error = await embedder.load().catch((caught: unknown) => caught);
    expect(SwitchboardError.hasCode(error, 'EMBEDDER_UNAVAILABLE')).toBe(true);
    expect((error as Error).message).toContain('no-such-org/no-such-model');
  });

  it('falls back to the offline default model by default (or says how to build it)', async () => {
    const logger = recordingLogger();
    const embedder = createTransformersEmbedder({
      model: 'no-such-org/no-such-model',
      allowRemote: false,
      logger,
    });
    if (offlineDefaultModel()) {
      const info = await embedder.load();
      expect(info.modelId).toBe(OFFLINE_MODEL_ID);
      expect(info.fallbackReason).toMatch(
        /^Embedding model "no-such-org\/no-such-model" could not be loaded: \S/,
      );
      expect(info.fallbackCode).toBe(ToolSelectionErrorCode.EmbedderUnavailable);
      expect(logger.lines).toHaveLength(1);
      const [vector] = await embedder.embed(['read a file']);
      expect(vector).toHaveLength(info.dimensions);
    } else {
      await expect(embedder.load()).rejects.toThrow(/build:model/);
    }
  });
});

describe('a hub model (opt-in by name, bounded load)', () => {
  it('must be named: the offline model has its own factory', () => {
    const error = (() => {
      try {
        createTransformersEmbedder({} as Parameters<typeof createTransformersEmbedder>[0]);
      } catch (caught) {
        return caught;
      }
    })();
    expect(SwitchboardError.hasCode(error, ToolSelectionErrorCode.InvalidArgument)).toBe(true);
    expect((error as Error).message).toContain('createOfflineEmbedder()');
  });

  it('gives up after loadTimeoutMs with EMBEDDER_TIMEOUT, and aborts the download in flight', async () => {
    let arrive: (request: IncomingMessage) => void = () => {};
    const arrived = new Promise<IncomingMessage>((resolve) => {
      arrive = resolve;
    });
    // A hub that takes requests and never answers: a stalled network.
    await using hub = await listenOnRandomPort(createServer((request) => arrive(request)));
    const embedder = createTransformersEmbedder({
      model: 'Xenova/all-MiniLM-L6-v2',
      remoteHost: hub.origin,
      cacheDir: model.root,
      loadTimeoutMs: 500,
      fallback: false,
    });
    const failed = embedder.load().catch((caught: unknown) => caught);
    const request = await arrived;
    expect(request.url).toMatch(/^\/Xenova\/all-MiniLM-L6-v2\/resolve\/main\//);
    const aborted = new Promise<void>((resolve) => request.once('close', () => resolve()));
    const error = await failed;
    expect(SwitchboardError.hasCode(error, ToolSelectionErrorCode.EmbedderTimeout)).toBe(true);
    expect((error as Error).message).toContain(
      'Embedding model "Xenova/all-MiniLM-L6-v2" did not load within 500 ms',
    );
    expect((error as SwitchboardError).context).toEqual({ model: 'Xenova/all-MiniLM-L6-v2', timeoutMs: 500 });
    // The client hung up: the download does not run on unseen.
    await aborted;
  });

  it('fails with EMBEDDER_UNAVAILABLE, naming the model and where it looked, when the hub cannot be reached', async () => {
    const closedPort = await freePort();
    const embedder = createTransformersEmbedder({
      model: 'Xenova/all-MiniLM-L6-v2',
      remoteHost: `http://127.0.0.1:${closedPort}`,
      cacheDir: model.root,
      fallback: false,
    });
    const error = await embedder.load().catch((caught: unknown) => caught);
    expect(SwitchboardError.hasCode(error, ToolSelectionErrorCode.EmbedderUnavailable)).toBe(true);
    const message = (error as Error).message;
    expect(message).toMatch(/^Embedding model "Xenova\/all-MiniLM-L6-v2" could not be loaded: \S/);
    expect(message).toContain(`then fetched from http://127.0.0.1:${closedPort}`);
    expect(message).toContain('createOfflineEmbedder()');
  });
});

describe.skipIf(!offlineDefaultModel())('the offline default model', () => {
  it('loads without network and ranks paraphrases above unrelated text', async () => {
    const embedder = createOfflineEmbedder();
    const info = await embedder.load();
    expect(info).toMatchObject({ modelId: OFFLINE_MODEL_ID, dimensions: OFFLINE_MODEL_DIMS });
    const [files, folder, flight] = await embedder.embed([
      'list files in a directory',
      'show the contents of a folder',
      'book a flight to Paris',
    ]);
    expect(cosine(files as Float32Array, folder as Float32Array)).toBeGreaterThan(
      cosine(files as Float32Array, flight as Float32Array) + 0.1,
    );
  });

  it('embeds texts with no known word (letters, fragments, stop words) as zeros', async () => {
    const embedder = createOfflineEmbedder();
    const vectors = await embedder.embed([
      'qwxz vbnmt plokij',
      'xyzzy frobnicate',
      'the of and',
      '',
      'zzzz sum',
    ]);
    for (const vector of vectors.slice(0, 4)) expect([...vector].every((value) => value === 0)).toBe(true);
    expect(Math.hypot(...(vectors[4] as Float32Array))).toBeCloseTo(1, 5);
  });
});
