import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicModel } from '../../src/agent/anthropic-model.js';
import type { ChatMessage } from '../../src/agent/model-adapter.js';
import { type ProviderStub, startProviderStub } from './provider-stub.js';

const sumTool = {
  name: 'mcp__everything__get-sum',
  description: 'Returns the sum of two numbers',
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  },
};

let stub: ProviderStub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

describe('createAnthropicModel', () => {
  it('sends system, messages and converted tools to /v1/messages and parses tool_use blocks', async () => {
    stub = await startProviderStub([
      {
        body: {
          content: [
            { type: 'text', text: 'Let me add.' },
            { type: 'tool_use', id: 'toolu_2', name: sumTool.name, input: { a: 1, b: 2 } },
          ],
        },
      },
    ]);
    const model = createAnthropicModel({ apiKey: 'key-test', model: 'test-model', baseUrl: stub.baseUrl });
    const messages: ChatMessage[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'add 1 and 2, then 3 and 4' },
      {
        role: 'assistant',
        toolCalls: [
          { id: 'toolu_0', name: 'discover_tools', arguments: { query: 'sum' } },
          { id: 'toolu_1', name: 'discover_tools', arguments: { query: 'add' } },
        ],
      },
      { role: 'tool', toolCallId: 'toolu_0', name: 'discover_tools', content: 'first' },
      { role: 'tool', toolCallId: 'toolu_1', name: 'discover_tools', content: 'second' },
    ];
    const reply = await model.generate({ messages, tools: [sumTool] });

    expect(reply).toEqual({ toolCalls: [{ id: 'toolu_2', name: sumTool.name, arguments: { a: 1, b: 2 } }] });
    const [request] = stub.requests;
    expect(request?.path).toBe('/v1/messages');
    expect(request?.headers['x-api-key']).toBe('key-test');
    expect(request?.headers['anthropic-version']).toBe('2023-06-01');
    expect(request?.body).toMatchObject({ model: 'test-model', system: 'Be brief.', max_tokens: 1024 });
    expect(request?.body.tools).toEqual([
      { name: sumTool.name, description: sumTool.description, input_schema: sumTool.inputSchema },
    ]);
    expect(request?.body.messages).toEqual([
      { role: 'user', content: 'add 1 and 2, then 3 and 4' },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'toolu_0', name: 'discover_tools', input: { query: 'sum' } },
          { type: 'tool_use', id: 'toolu_1', name: 'discover_tools', input: { query: 'add' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_0', content: 'first' },
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'second' },
        ],
      },
    ]);
  });

  it('returns the text blocks when the model answers without tools', async () => {
    stub = await startProviderStub([
      {
        body: {
          content: [
            { type: 'text', text: 'It is ' },
            { type: 'text', text: '3.' },
          ],
        },
      },
    ]);
    const model = createAnthropicModel({ apiKey: 'key-test', baseUrl: stub.baseUrl });
    expect(await model.generate({ messages: [{ role: 'user', content: 'hi' }], tools: [] })).toEqual({
      text: 'It is 3.',
    });
  });

  it('reports an HTTP error with the status and body, never the key', async () => {
    stub = await startProviderStub([{ status: 400, body: { error: { message: 'max_tokens too large' } } }]);
    const model = createAnthropicModel({ apiKey: 'key-secret-value', baseUrl: stub.baseUrl });
    const failure = model.generate({ messages: [{ role: 'user', content: 'hi' }], tools: [] });
    await expect(failure).rejects.toThrow(/answered 400: .*max_tokens too large/);
    await expect(failure).rejects.not.toThrow(/key-secret-value/);
  });
});
