import { describe, expect, it } from 'vitest';
import { runExample } from './run-example.js';

describe('single-server example', () => {
  it('lists the filesystem tools, writes, lists and reads a file, and rejects bad arguments', async () => {
    const { stdout, stderr, exitCode } = await runExample('single-server');
    expect(exitCode, stderr).toBe(0);
    expect(stdout).toMatch(/filesystem offers \d+ tools:/);
    expect(stdout).toMatch(/mcp__filesystem__read_text_file\s+read/);
    expect(stdout).toMatch(/mcp__filesystem__write_file\s+write/);
    expect(stdout).toContain('approved mcp__filesystem__write_file');
    expect(stdout).toContain('→ success: Successfully wrote to <tmp>/plan.md');
    expect(stdout).toMatch(/\[FILE\] notes\.txt\s+\[FILE\] plan\.md/);
    expect(stdout).toContain('→ success: Switchboard connects agents to MCP servers.');
    expect(stdout).toContain('`path` must be a string, got number 42');
  });
});
