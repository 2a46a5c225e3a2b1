import { describe, expect, it } from 'vitest';
import { runExample } from './run-example.js';

describe('many-servers example', () => {
  it('loads mcp.json, namespaces tools, applies approval config and reports status and metrics', async () => {
    const { stdout, stderr, exitCode } = await runExample('many-servers');
    expect(exitCode, stderr).toBe(0);
    expect(stdout).toContain('loaded 5 servers from 1 file(s)');
    expect(stdout).toMatch(/everything\s+13\s+mcp__everything__/);
    expect(stdout).toMatch(/memory\s+9\s+mcp__kg__/);
    expect(stdout).toContain('mcp__everything__get-sum → The sum of 20 and 22 is 42.');
    expect(stdout).toContain('mcp__files__write_file → Successfully wrote to <tmp>/todo.md');
    expect(stdout).toContain('[FILE] todo.md');
    expect(stdout).toMatch(/mcp__kg__read_graph → .*"Switchboard"/);
    expect(stdout).toContain('mcp__files__move_file → refused: APPROVAL_REQUIRED');
    expect(stdout).toMatch(/broken\s+failed\s+CONNECTION_FAILED/);
    expect(stdout).toMatch(/everything\s+calls 4\s+errors 0/);
    expect(stdout).toContain('get-sum alone: 3 calls');
    expect(stdout).not.toMatch(/^\s+later\s/m);
  });
});
