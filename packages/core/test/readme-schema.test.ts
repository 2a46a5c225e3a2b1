import { readmeSnippet, runSnippet } from '@switchboard/test-helpers';
import { describe, expect, it } from 'vitest';

const readme = new URL('../README.md', import.meta.url);

describe('README, schema conversion and validation', () => {
  it('runs the snippet and prints what its comments say', async () => {
    const snippet = readmeSnippet(readme, '## Schema conversion and validation');
    expect(snippet).toBeDefined();
    const lines = await runSnippet(
      (snippet as string).replace("from '@switchboard/core'", "from '../src/index.js'"),
      { nextTo: import.meta.url },
    );
    // Each printed value must appear in the comment lines that follow its console.log.
    const comments = (snippet as string)
      .split('\n')
      .filter((line) => line.startsWith('// '))
      .map((line) => line.slice(3))
      .join('');
    expect(lines).toHaveLength(8);
    expect(comments.replaceAll(' ', '')).toContain((lines[0] as string).replaceAll(' ', ''));
    expect((lines[1] as string).replace(/\s+/g, ' ')).toBe(
      "[ 'moved-to-description /properties/path/minLength', 'made-nullable /properties/tail' ]",
    );
    expect(lines[2]).toBe('[]');
    expect(lines[3]).toBe("{ path: 'notes.txt' }");
    expect(comments.replaceAll(' ', '')).toContain((lines[4] as string).replaceAll(' ', ''));
    expect(lines[5]).toBe('false');
    const message = (lines[6] as string).split('\n');
    expect(message.slice(0, 3)).toEqual([
      'Invalid arguments for tool `read_file` (2 problems):',
      '- `path` is required',
      '- `tail` must be an integer, got string "3"',
    ]);
    expect(message.slice(4)).toEqual([
      'Arguments given: {"tail":"3"}',
      'Correct the arguments to match the schema and call `read_file` again.',
    ]);
    expect(lines[7]).toBe('{ compilations: 1, cacheHits: 1, cacheMisses: 1 }');
  });
});
