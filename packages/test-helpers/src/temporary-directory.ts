/**
 * Real temporary directories for tests, removed when the test is done with them: one at a time
 * (`createTemporaryDirectory`, `using` removes it at the end of the scope), or every one a test
 * made, at once from an `afterEach` (`createTemporaryDirectories`).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A temporary directory; `remove()` (or leaving a `using` scope) deletes it and all in it. */
export interface TemporaryDirectory extends Disposable {
  /** Its real path (symlinks resolved). */
  readonly path: string;
  /** Writes `text` to `relative` inside it, making folders as needed; returns the file's path. */
  write(relative: string, text: string): string;
  remove(): void;
}

/** Directories made during a test, all removed by `removeAll()` (call it from `afterEach`). */
export interface TemporaryDirectories {
  /** A fresh directory (its real path) named `<prefix><random>` in the OS temp folder. */
  make(prefix?: string): string;
  removeAll(): void;
}

function makeDirectory(prefix: string): string {
  // realpath: macOS's tmpdir is a symlink, and paths in assertions must match resolved ones.
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

function removeDirectory(path: string): void {
  rmSync(path, { recursive: true, force: true });
}

/** Makes a temporary directory named `<prefix><random>`. */
export function createTemporaryDirectory(prefix = 'switchboard-test-'): TemporaryDirectory {
  const path = makeDirectory(prefix);
  return {
    path,
    write(relative, text) {
      const file = join(path, relative);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
      return file;
    },
    remove: () => removeDirectory(path),
    [Symbol.dispose]: () => removeDirectory(path),
  };
}

/** A set of temporary directories to make during tests and remove together. */
export function createTemporaryDirectories(): TemporaryDirectories {
  const made: string[] = [];
  return {
    make(prefix = 'switchboard-test-') {
      const path = makeDirectory(prefix);
      made.push(path);
      return path;
    },
    removeAll() {
      for (const path of made.splice(0)) removeDirectory(path);
    },
  };
}
