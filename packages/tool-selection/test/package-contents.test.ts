import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { OFFLINE_MODEL_FILES, OFFLINE_MODEL_ID } from '../src/index.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

describe('published package', () => {
  // The offline default must work for someone who installs only this package from the registry:
  // the built model has to be in the tarball, and build inputs (teacher cache, targets) must not.
  it('ships the offline model next to dist, and nothing of the build cache', async () => {
    const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: packageDir,
      timeout: 60_000,
    });
    const [pack] = JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>;
    const files = pack!.files.map((file) => file.path);
    expect(files).toContain('dist/index.js');
    // Every file of the model folder, build-info.json (the digests) and the teacher projection included.
    for (const file of Object.values(OFFLINE_MODEL_FILES)) {
      expect(files).toContain(`models/${OFFLINE_MODEL_ID}/${file}`);
    }
    expect(files.filter((file) => /(^|\/)\.cache\/|^data\/|^src\/|^scripts\//.test(file))).toEqual([]);
  }, 90_000);
});
