import { describe, expect, it } from 'vitest';
import { runExample } from './run-example.js';

describe('serve-agent example', () => {
  it('serves tools and an agent over Streamable HTTP and calls both from the client', async () => {
    const { stdout, stderr, exitCode } = await runExample('serve-agent');
    expect(exitCode, stderr).toBe(0);
    expect(stdout).toMatch(/serving "assistant" on http:\/\/127\.0\.0\.1:\d+\/mcp/);
    const seen = /client sees: (.*)/.exec(stdout)?.[1]?.split(', ') ?? [];
    expect(seen.sort()).toEqual([
      'mcp__assistant__ask_assistant',
      'mcp__assistant__convert_currency',
      'mcp__assistant__count_words',
    ]);
    expect(stdout).toContain('→ 250 USD = 230.00 EUR');
    expect(stdout).toContain('→ {"words":7}');
    expect(stdout).toContain('(inside the agent: convert_currency {"amount":120,"from":"EUR","to":"NOK"})');
    expect(stdout).toContain('→ That is 1411.76 NOK.');
    expect(stdout).toContain('→ I have no script for that request.');
    expect(stdout).toContain('transport: http; calls: 4');
  });
});
