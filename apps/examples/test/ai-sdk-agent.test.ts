import { describe, expect, it } from 'vitest';
import { runExample } from './run-example.js';

describe('ai-sdk-agent example', () => {
  it('runs MCP tools in the AI SDK loop: a sum, an image part, a deletion after approval, and per-step selection', async () => {
    const { stdout, stderr, exitCode } = await runExample('ai-sdk-agent');
    expect(exitCode, stderr).toBe(0);
    expect(stdout).toContain('model: scripted offline model');
    expect(stdout).toMatch(/offering \d+ tools to the AI SDK/);
    expect(stdout).toContain('tool mcp__everything__get-sum → text');
    expect(stdout).toContain('tool mcp__everything__get-tiny-image → text + image/png');
    expect(stdout).toContain('answer: 17 + 25 = 42. I can see the tiny image.');
    expect(stdout).toContain(
      'approval asked for mcp__memory__delete_entities {"entityNames":["Switchboard"]} → approved',
    );
    expect(stdout).toContain('answer: Forgotten.');
    expect(stdout).toContain('memory still holds Switchboard: false');
    // Per-step selection with the real selector: a few tools, the one needed and discover_tools among them.
    const selection = /with selection, step 1 offered (\d+) of (\d+) tools: (.*)/.exec(stdout);
    expect(Number(selection?.[1])).toBeLessThanOrEqual(4);
    expect(Number(selection?.[2])).toBeGreaterThan(20);
    expect(selection?.[3]).toContain('mcp__everything__get-sum');
    expect(selection?.[3]).toContain('discover_tools');
    expect(stdout).toContain('answer: 40 + 2 = 42.');
  });
});
