import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTemporaryDirectories, createTemporaryDirectory } from '../src/index.js';

describe('temporary directories', () => {
  it('writes into nested folders and is gone after its `using` scope', () => {
    let path: string;
    {
      using directory = createTemporaryDirectory('th-one-');
      path = directory.path;
      const file = directory.write('a/b/c.txt', 'hello');
      expect(file).toBe(join(path, 'a/b/c.txt'));
      expect(readFileSync(file, 'utf8')).toBe('hello');
    }
    expect(existsSync(path)).toBe(false);
  });

  it('removeAll removes every directory made, and only once', () => {
    const temporary = createTemporaryDirectories();
    const made = [temporary.make('th-many-'), temporary.make('th-many-')];
    expect(made.every((path) => existsSync(path))).toBe(true);
    temporary.removeAll();
    expect(made.some((path) => existsSync(path))).toBe(false);
    temporary.removeAll();
  });
});
