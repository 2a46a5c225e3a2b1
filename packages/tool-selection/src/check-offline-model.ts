/**
 * Checks a model folder against its `build-info.json`: every file there, with the size and SHA-256 the
 * build recorded. The package build runs it on the committed offline model (scripts/check-offline-model.ts)
 * so that a normal build trains nothing yet never ships a file that is missing, half-written or replaced;
 * `@switchboard/model-build` records the digests with {@link digestOfflineModelFiles}, so writer and
 * checker agree by construction.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  OFFLINE_MODEL_FILES,
  OFFLINE_MODEL_HASHED_FILES,
  type OfflineModelBuildInfo,
  type OfflineModelFileDigest,
  type OfflineModelHashedFile,
} from './offline-model-layout.js';

/** One thing wrong with a model folder. */
export interface OfflineModelProblem {
  /** The file, relative to the folder (`onnx/model_quantized.onnx`). */
  file: string;
  /** What is wrong: absent, other bytes than recorded, or a build-info.json that cannot be read. */
  kind: 'missing' | 'mismatch' | 'bad-build-info';
  /** A sentence saying what was found and what was expected. */
  message: string;
}

/** The result of {@link checkOfflineModel}. */
export type OfflineModelCheck =
  | { ok: true; buildInfo: OfflineModelBuildInfo }
  | { ok: false; problems: OfflineModelProblem[] };

/** Size and SHA-256 of `bytes`. */
export function digestBytes(bytes: Uint8Array): OfflineModelFileDigest {
  return { sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.byteLength };
}

/** The digest of every hashed file of the folder (all must exist), for `build-info.json`'s `files`. */
export function digestOfflineModelFiles(
  folder: string,
): Record<OfflineModelHashedFile, OfflineModelFileDigest> {
  const files = {} as Record<OfflineModelHashedFile, OfflineModelFileDigest>;
  for (const file of OFFLINE_MODEL_HASHED_FILES) files[file] = digestBytes(readFileSync(join(folder, file)));
  return files;
}

function readBuildInfo(folder: string): OfflineModelBuildInfo | OfflineModelProblem {
  const file = OFFLINE_MODEL_FILES.buildInfo;
  const path = join(folder, file);
  if (!existsSync(path)) return { file, kind: 'missing', message: `${path} does not exist` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    return { file, kind: 'bad-build-info', message: `${path} is not JSON: ${(error as Error).message}` };
  }
  const files = (parsed as { files?: unknown }).files;
  if (typeof files !== 'object' || files === null) {
    return { file, kind: 'bad-build-info', message: `${path} has no "files" object of SHA-256 digests` };
  }
  return parsed as OfflineModelBuildInfo;
}

/** Checks every file `build-info.json` must list against the digest it records. */
export function checkOfflineModel(folder: string): OfflineModelCheck {
  const buildInfo = readBuildInfo(folder);
  if ('kind' in buildInfo) return { ok: false, problems: [buildInfo] };
  const problems: OfflineModelProblem[] = [];
  for (const file of OFFLINE_MODEL_HASHED_FILES) {
    const expected = buildInfo.files[file] as OfflineModelFileDigest | undefined;
    const path = join(folder, file);
    if (!expected || typeof expected.sha256 !== 'string') {
      problems.push({
        file,
        kind: 'bad-build-info',
        message: `build-info.json records no SHA-256 for ${file}`,
      });
    } else if (!existsSync(path)) {
      problems.push({ file, kind: 'missing', message: `${path} does not exist` });
    } else {
      const actual = digestBytes(readFileSync(path));
      if (actual.sha256 !== expected.sha256 || actual.bytes !== expected.bytes) {
        problems.push({
          file,
          kind: 'mismatch',
          message: `${path} has SHA-256 ${actual.sha256} (${actual.bytes} bytes); build-info.json records ${expected.sha256} (${expected.bytes} bytes)`,
        });
      }
    }
  }
  return problems.length ? { ok: false, problems } : { ok: true, buildInfo };
}
