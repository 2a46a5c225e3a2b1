import { readmeSnippet, runSnippet } from '@switchboard/test-helpers';
import { describe, expect, it } from 'vitest';

const readme = new URL('../README.md', import.meta.url);

describe('README', () => {
  it('quick example runs and prints what its comments say', async () => {
    const snippet = readmeSnippet(readme);
    expect(snippet).toBeDefined();
    const lines = await runSnippet(
      (snippet as string).replace("from '@switchboard/core'", "from '../src/index.js'"),
      { nextTo: import.meta.url },
    );
    expect(lines.slice(0, 2)).toEqual([
      'added mcp__filesystem__read_text_file',
      'added mcp__filesystem__write_file',
    ]);
    expect(lines[2]).toBe("{ server: 'filesystem', originalName: 'write_file' }");
    expect(lines[3]).toBe('my_agent_run');
    expect(lines.slice(4, 6)).toEqual([
      'mcp__filesystem__read_text_file read allow',
      'mcp__filesystem__write_file write ask',
    ]);
    expect(lines[6]).toContain("message: 'Here is the chart:\\n\\n[image: image/png, 70 B]'");
    expect(lines[6]).toContain("status: 'success'");
  });
});
