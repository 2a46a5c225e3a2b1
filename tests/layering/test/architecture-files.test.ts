/**
 * docs/architecture.md names real files: every `something.ts` in backticks exists under a package's
 * `src/` (or from the root), so the map fails here when a file it names is renamed, split or removed.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { missingNamedFiles } from '../src/named-source-files.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const folders: string[] = [];

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A tree in a fresh temporary folder: each key a path, each value the file's text. */
function tree(files: Record<string, string>): string {
  const folder = mkdtempSync(join(tmpdir(), 'named-files-'));
  folders.push(folder);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), text);
  }
  return folder;
}

describe('the files docs/architecture.md names', () => {
  it('all exist', () => {
    const markdown = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');
    expect(missingNamedFiles(markdown, root)).toEqual([]);
  });

  it('are found by their last segments, a glob or a root path, and a missing one is reported at its line', () => {
    const folder = tree({
      'packages/server/src/http/mcp-post.ts': '',
      'packages/cli/src/commands/ui-command.ts': '',
      'tests/guard/src/known.ts': '',
    });
    const markdown = [
      'The post is `mcp-post.ts` (`http/mcp-post.ts`), commands are `commands/*-command.ts`,',
      'the list `tests/guard/src/known.ts`; `not a file.ts` and `index.js` are not names.',
      'Gone: `http/old-server.ts`, `post.ts`, `server/mcp-post.ts`, `*-missing.ts`.',
    ].join('\n');
    expect(missingNamedFiles(markdown, folder)).toEqual([
      { name: 'http/old-server.ts', line: 3 },
      { name: 'post.ts', line: 3 },
      { name: 'server/mcp-post.ts', line: 3 },
      { name: '*-missing.ts', line: 3 },
    ]);
  });
});
