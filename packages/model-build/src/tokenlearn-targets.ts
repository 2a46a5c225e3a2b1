/**
 * The refit's targets: each corpus sentence's teacher vector, centred on the corpus mean, projected through
 * the PCA and normalised; plus that mean. Running the teacher over the corpus costs ~20 ms a sentence
 * (~8 min for 27,500), so the targets are committed (`data/tokenlearn-targets.bin` + `.json`), int8 with
 * one scale per row. The build always trains on the int8 values, so a refresh and a committed read give
 * the same model. They are read when the sentences and the projection they were made with match;
 * otherwise (or with `refresh`) the teacher recomputes them.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { OFFLINE_MODEL_TEACHER_DIMS } from '@switchboard/tool-selection';
import type { BuildLog } from './build-log.js';
import { applyProjection, type PcaProjection } from './pca.js';
import { refitCorpusSource } from './refit-corpus.js';
import { embedWithTeacher, teacherId } from './teacher-vectors.js';

/** The targets of the refit corpus. */
export interface TokenlearnTargets {
  /** Mean of the corpus' teacher vectors [512]: the centre teacher-projection.f32 stores. */
  centre: Float32Array;
  /** Normalised, projected targets [sentences × axes] (the int8 values times their row scale). */
  targets: Float32Array;
}

/** Options of {@link readTokenlearnTargets}. */
export interface TokenlearnTargetsOptions {
  /** Path of the committed files without extension: `<base>.json` and `<base>.bin`. */
  targetsBase: string;
  /** Recompute the targets with the teacher and rewrite the committed files. */
  refresh: boolean;
  /** Sentences per teacher call. */
  teacherBatch: number;
  /** The teacher cache folder. */
  cacheDir: string;
  log: BuildLog;
}

/** What the committed `.json` says the `.bin` was made from: all must match for the file to be used. */
interface TargetsIdentity {
  sentences: number;
  dims: number;
  textsSha256: string;
  projectionSha256: string;
  teacher: string;
}

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');
const bytesOf = (values: Float32Array) => new Uint8Array(values.buffer, values.byteOffset, values.byteLength);

/** The layout of the `.bin` file: float32 LE centre [512], float32 LE scale [rows], int8 [rows][dims]. */
function decodeTargets(bin: Uint8Array, rows: number, dims: number): TokenlearnTargets {
  const width = OFFLINE_MODEL_TEACHER_DIMS;
  const centre = new Float32Array(bin.buffer.slice(bin.byteOffset, bin.byteOffset + width * 4));
  const scales = new Float32Array(
    bin.buffer.slice(bin.byteOffset + width * 4, bin.byteOffset + width * 4 + rows * 4),
  );
  const quantized = new Int8Array(bin.buffer, bin.byteOffset + width * 4 + rows * 4, rows * dims);
  const targets = new Float32Array(rows * dims);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < dims; j++)
      targets[i * dims + j] = (quantized[i * dims + j] as number) * (scales[i] as number);
  }
  return { centre, targets };
}

/** Runs the teacher over the corpus and encodes the targets as the `.bin` file's bytes. */
async function computeTargets(
  corpus: readonly string[],
  projection: PcaProjection,
  options: TokenlearnTargetsOptions,
): Promise<Buffer> {
  const width = OFFLINE_MODEL_TEACHER_DIMS;
  const rows = corpus.length;
  const dims = projection.axes;
  const teacher = await embedWithTeacher(corpus, {
    batchSize: options.teacherBatch,
    cacheDir: options.cacheDir,
    log: options.log,
  });
  const centre = new Float64Array(width);
  for (let i = 0; i < rows; i++)
    for (let j = 0; j < width; j++) centre[j] = (centre[j] as number) + (teacher[i * width + j] as number);
  for (let j = 0; j < width; j++) centre[j] = (centre[j] as number) / rows;
  const projected = applyProjection(teacher, rows, projection, centre);
  const bin = Buffer.alloc(width * 4 + rows * 4 + rows * dims);
  Buffer.from(bytesOf(Float32Array.from(centre))).copy(bin, 0);
  const scales = new Float32Array(rows);
  const quantized = new Int8Array(bin.buffer, bin.byteOffset + width * 4 + rows * 4, rows * dims);
  for (let i = 0; i < rows; i++) {
    let norm = 0;
    for (let j = 0; j < dims; j++) norm += (projected[i * dims + j] as number) ** 2;
    norm = Math.sqrt(norm) || 1;
    let max = 0;
    for (let j = 0; j < dims; j++) max = Math.max(max, Math.abs((projected[i * dims + j] as number) / norm));
    scales[i] = max / 127 || 0;
    const scale = scales[i] as number;
    for (let j = 0; j < dims; j++) {
      quantized[i * dims + j] = scale ? Math.round((projected[i * dims + j] as number) / norm / scale) : 0;
    }
  }
  Buffer.from(bytesOf(scales)).copy(bin, width * 4);
  return bin;
}

/** Writes the `.bin` and its `.json` (identity, SHA-256, layout, provenance and licence). */
function writeTargets(bin: Buffer, identity: TargetsIdentity, options: TokenlearnTargetsOptions): void {
  const base = options.targetsBase;
  mkdirSync(dirname(base), { recursive: true });
  writeFileSync(`${base}.bin`, bin);
  const meta = {
    ...identity,
    binSha256: sha256(bin),
    layout:
      'float32 LE centre [512], float32 LE scale [sentences], int8 [sentences][dims]: target = int8 x scale',
    corpus: `${refitCorpusSource()}: WordNet 3.1 glosses and usage examples, first ${identity.sentences} of a seeded shuffle (packages/model-build/src/refit-corpus.ts)`,
    licence:
      'derived from WordNet 3.1 (Copyright 2011 by Princeton University, WordNet licence) and the Universal Sentence Encoder lite (Apache-2.0)',
  };
  writeFileSync(`${base}.json`, `${JSON.stringify(meta, null, 2)}\n`);
  options.log(`wrote ${base}.bin (${(bin.length / 1e6).toFixed(1)} MB)`);
}

/** The targets of `corpus` under `projection`: the committed ones when they match, else the teacher's. */
export async function readTokenlearnTargets(
  corpus: readonly string[],
  projection: PcaProjection,
  options: TokenlearnTargetsOptions,
): Promise<TokenlearnTargets> {
  const rows = corpus.length;
  const dims = projection.axes;
  const identity: TargetsIdentity = {
    sentences: rows,
    dims,
    textsSha256: sha256(JSON.stringify(corpus)),
    projectionSha256: sha256(bytesOf(projection.data)),
    teacher: teacherId(),
  };
  const base = options.targetsBase;
  const bytes = OFFLINE_MODEL_TEACHER_DIMS * 4 + rows * 4 + rows * dims;
  if (!options.refresh && existsSync(`${base}.json`) && existsSync(`${base}.bin`)) {
    const stored = JSON.parse(readFileSync(`${base}.json`, 'utf8')) as Record<string, unknown>;
    const bin = readFileSync(`${base}.bin`);
    const differing = (Object.keys(identity) as Array<keyof TargetsIdentity>).filter(
      (key) => stored[key] !== identity[key],
    );
    if (differing.length === 0 && bin.length === bytes && sha256(bin) === stored.binSha256) {
      options.log(`refit targets from ${base}.bin (${rows} sentences)`);
      return decodeTargets(bin, rows, dims);
    }
    options.log(
      `the committed refit targets differ in ${differing.length ? differing.join(', ') : 'their bytes'}: recomputing them with the teacher (${rows} sentences, ~20 ms each); --refresh-targets would rewrite them`,
    );
  }
  const bin = await computeTargets(corpus, projection, options);
  if (options.refresh) writeTargets(bin, identity, options);
  return decodeTargets(bin, rows, dims);
}
