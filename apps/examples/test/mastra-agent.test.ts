import { describe, expect, it } from 'vitest';
import { runExample } from './run-example.js';

describe('mastra-agent example', () => {
  it('runs MCP tools in a Mastra agent, suspends for approval and resumes', async () => {
    const { stdout, stderr, exitCode } = await runExample('mastra-agent');
    expect(exitCode, stderr).toBe(0);
    expect(stdout).toMatch(/Mastra tools: 2\d \(e\.g\. mcp__(everything|memory)__/);
    expect(stdout).toContain('mcp__everything__get-sum → The sum of 17 and 25 is 42.');
    expect(stdout).toContain('the model received the image result as: text, image-data');
    expect(stdout).toContain('(+1 media)');
    expect(stdout).toContain('run suspended (suspended): mcp__memory__create_entities needs approval');
    expect(stdout).toContain('memory file holds the entity: true');
    expect(stdout).toContain('answer: Done. 17 + 25 = 42, and I stored it.');
  });
});
