import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A real temporary directory with helpers to write files into it; `remove()` deletes it. */
export interface TempDirectory {
  path: string;
  write(relative: string, text: string): Promise<string>;
  remove(): Promise<void>;
}

export async function createTempDirectory(): Promise<TempDirectory> {
  // realpath: macOS's tmpdir is a symlink, and paths in assertions must match resolved ones.
  const path = await realpath(await mkdtemp(join(tmpdir(), 'switchboard-config-')));
  return {
    path,
    async write(relative, text) {
      const file = join(path, relative);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, text);
      return file;
    },
    remove: () => rm(path, { recursive: true, force: true }),
  };
}
