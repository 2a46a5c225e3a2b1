import { describe, expect, it } from 'vitest';
import { runExample } from './run-example.js';

describe('openai-agents-agent example', () => {
  it('runs the Agents SDK offline: tool results, an approval interruption, an image over mcpServers', async () => {
    const { stdout, stderr, exitCode } = await runExample('openai-agents-agent');
    expect(exitCode, stderr).toBe(0);
    expect(stdout).toMatch(/^model: scripted \(offline\); \d+ tools/m);
    expect(stdout).toContain('model got mcp__everything__get_sum output as: text');
    // The write asked first, and ran only after the approval.
    expect(stdout).toContain('approval asked: mcp__memory__create_entities');
    expect(stdout.indexOf('→ approved')).toBeLessThan(
      stdout.indexOf('model got mcp__memory__create_entities'),
    );
    expect(stdout).toContain('memory now holds: answer (17 + 25 = 42)');
    expect(stdout).toContain('model got mcp__everything__get_tiny_image output as: input_text, input_image');
    expect(stdout).toContain('answer: A tiny test image.');
  });
});
