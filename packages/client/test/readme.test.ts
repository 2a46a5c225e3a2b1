// The README's quick start runs as written (with the server started from node_modules instead of npx).
import {
  localServerEverything,
  npxServerEverything,
  readmeSnippet,
  runSnippet,
} from '@switchboard/test-helpers';
import { describe, expect, it } from 'vitest';

const readme = new URL('../README.md', import.meta.url);

describe('README', () => {
  it('quick start connects, calls echo and prints what its comments say', async () => {
    const snippet = readmeSnippet(readme, '## Quick start');
    expect(snippet).toBeDefined();
    const runnable = (snippet as string)
      .replace("from '@switchboard/client'", "from '../src/index.js'")
      .replace(npxServerEverything, localServerEverything());
    expect(runnable).not.toContain('npx');
    const lines = await runSnippet(runnable, { nextTo: import.meta.url });
    expect(lines[0]).toBe('connected');
    expect(lines[1]).toContain("status: 'success'");
    expect(lines[1]).toContain("message: 'Echo: hello'");
    expect(lines[2]).toBe('1');
  });
});
