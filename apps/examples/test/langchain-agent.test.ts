import { describe, expect, it } from 'vitest';
import { runExample } from './run-example.js';

describe('langchain-agent example', () => {
  it('runs MCP tools in LangGraph’s createReactAgent, pauses for approval and resumes', async () => {
    const { stdout, stderr, exitCode } = await runExample('langchain-agent');
    expect(exitCode, stderr).toBe(0);
    expect(stdout).toMatch(/LangChain tools: 2\d \(e\.g\. mcp__(everything|memory)__/);
    expect(stdout).toContain('mcp__everything__get-sum → success: The sum of 17 and 25 is 42.');
    expect(stdout).toContain('the model received the image result as blocks: text, image');
    expect(stdout).toContain('graph paused: mcp__memory__create_entities on memory needs approval');
    expect(stdout).toContain('resumed with approval → success');
    expect(stdout).toContain('memory file holds the entity: true');
    expect(stdout).toContain('answer: Done. 17 + 25 = 42');
  });
});
