import { execFile } from 'node:child_process';
import { cpSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createTemporaryDirectory } from '@switchboard/test-helpers';
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkOfflineModel,
  createOfflineEmbedder,
  OFFLINE_MODEL_DIMS,
  OFFLINE_MODEL_FILES,
  OFFLINE_MODEL_HASHED_FILES,
  OFFLINE_MODEL_ID,
  OFFLINE_MODELS_DIR,
} from '../src/index.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const shipped = join(OFFLINE_MODELS_DIR, OFFLINE_MODEL_ID);
const directory = createTemporaryDirectory('tool-selection-model-copy-');
afterAll(() => directory.remove());

/** A copy of the shipped folder, to break. */
function copyOfShipped(name: string): string {
  const folder = join(directory.path, name);
  cpSync(shipped, folder, { recursive: true });
  return folder;
}

const runCheck = (folder: string) =>
  promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/check-offline-model.ts', folder], {
    cwd: packageDir,
  }).then(
    ({ stdout }) => ({ code: 0, stdout, stderr: '' }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );

describe('the committed offline model', () => {
  it('matches the SHA-256 of every file its build-info.json records', () => {
    const check = checkOfflineModel(shipped);
    expect(check.ok ? [] : check.problems.map((problem) => problem.message)).toEqual([]);
    if (!check.ok) return;
    expect(Object.keys(check.buildInfo.files).sort()).toEqual([...OFFLINE_MODEL_HASHED_FILES].sort());
    expect(check.buildInfo.dims).toBe(OFFLINE_MODEL_DIMS);
    const config = JSON.parse(readFileSync(join(shipped, OFFLINE_MODEL_FILES.config), 'utf8'));
    expect(config).toMatchObject({ hidden_size: OFFLINE_MODEL_DIMS, vocab_size: check.buildInfo.tokens });
  });

  it('stays within the 30 MB the package may ship', () => {
    const bytes = Object.values(OFFLINE_MODEL_FILES).reduce(
      (sum, file) => sum + statSync(join(shipped, file)).size,
      0,
    );
    expect(bytes).toBeLessThan(30e6);
  });

  it('loads and embeds 256-dimension unit vectors', async () => {
    const embedder = createOfflineEmbedder();
    const [vector] = await embedder.embed(['read a file from the disk']);
    expect(vector).toHaveLength(OFFLINE_MODEL_DIMS);
    expect(Math.hypot(...(vector as Float32Array))).toBeCloseTo(1, 5);
    await embedder.close?.();
  });
});

describe('checkOfflineModel on a changed copy', () => {
  it('names a file whose bytes changed, and one that is missing', () => {
    const folder = copyOfShipped('changed');
    const onnx = join(folder, OFFLINE_MODEL_FILES.onnx);
    const bytes = readFileSync(onnx);
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) ^ 1;
    writeFileSync(onnx, bytes);
    rmSync(join(folder, OFFLINE_MODEL_FILES.tokenizer));
    const check = checkOfflineModel(folder);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.problems.map(({ file, kind }) => ({ file, kind }))).toEqual([
      { file: OFFLINE_MODEL_FILES.tokenizer, kind: 'missing' },
      { file: OFFLINE_MODEL_FILES.onnx, kind: 'mismatch' },
    ]);
  });

  it('fails on a build-info.json without digests', () => {
    const folder = copyOfShipped('old-build-info');
    writeFileSync(join(folder, OFFLINE_MODEL_FILES.buildInfo), JSON.stringify({ cacheKey: 'x' }));
    const check = checkOfflineModel(folder);
    expect(check.ok ? undefined : check.problems[0]).toMatchObject({ kind: 'bad-build-info' });
  });

  it('makes the package build fail with the file and what to run', async () => {
    const folder = copyOfShipped('for-the-script');
    writeFileSync(join(folder, OFFLINE_MODEL_FILES.teacherProjection), 'not a projection');
    const failed = await runCheck(folder);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(`${OFFLINE_MODEL_FILES.teacherProjection} (mismatch)`);
    expect(failed.stderr).toContain('git checkout --');
    expect(failed.stderr).toContain('pnpm build:model');
    const passed = await runCheck(shipped);
    expect(passed).toMatchObject({ code: 0 });
  }, 60_000);
});
