import { describe, expect, it } from 'vitest';
import { runExample } from './run-example.js';

describe('gateway example', () => {
  it('serves three servers as one over HTTP to a raw SDK client, hiding tools that need approval', async () => {
    const { stdout, stderr, exitCode } = await runExample('gateway');
    expect(exitCode, stderr).toBe(0);
    expect(stdout).toMatch(/gateway over everything, filesystem, memory on http:\/\/127\.0\.0\.1:\d+\/mcp/);
    expect(stdout).toContain('connected to gateway');
    const [, listed, upstream] = /tools\/list: (\d+) of (\d+) upstream tools/.exec(stdout) ?? [];
    expect(Number(upstream)).toBe(36);
    expect(Number(listed)).toBeGreaterThan(20);
    expect(Number(listed)).toBeLessThan(36);
    expect(stdout).toMatch(/everything\s+13\s+mcp__everything__echo/);
    expect(stdout).toMatch(/not exposed: .*mcp__filesystem__write_file/);
    expect(stdout).toContain('mcp__everything__echo → Echo: through the gateway');
    expect(stdout).toContain('mcp__everything__get-sum → The sum of 2 and 40 is 42.');
    expect(stdout).toContain('mcp__filesystem__list_allowed_directories → Allowed directories: <tmp>');
    expect(stdout).toContain('mcp__memory__read_graph → { "entities": [], "relations": [] }');
    expect(stdout).toContain(
      'mcp__filesystem__write_file → JSON-RPC error -32602: Unknown tool "mcp__filesystem__write_file"',
    );
    expect(stdout).toContain(
      'mcp__everything__get-sum → isError: Invalid arguments for tool `mcp__everything__get-sum`',
    );
    expect(stdout).toContain('upstream "everything" ran 2 calls, 0 errors');
  });
});
