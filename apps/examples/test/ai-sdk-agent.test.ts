import { describe, expect, it } from 'vitest';
import { runExample } from './run-example.js';

describe('ai-sdk-agent example', () => {
  it('runs MCP tools in the AI SDK loop: a sum, an image part, and a deletion after approval', async () => {
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
  });
});
