import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/agent/model-adapter.js';
import { createOpenAIModel } from '../../src/agent/openai-model.js';
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

describe('createOpenAIModel', () => {
  it('sends messages and converted tools to /v1/chat/completions and parses tool calls', async () => {
    stub = await startProviderStub([
      {
        body: {
          choices: [
            {
              message: {
                content: null,
                tool_calls: [
                  {
                    id: 'call_1',
                    type: 'function',
                    function: { name: sumTool.name, arguments: '{"a":1,"b":2}' },
                  },
                ],
              },
            },
          ],
        },
      },
    ]);
    const model = createOpenAIModel({ apiKey: 'sk-test', model: 'test-model', baseUrl: stub.baseUrl });
    const messages: ChatMessage[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'add 1 and 2' },
      {
        role: 'assistant',
        toolCalls: [{ id: 'call_0', name: 'discover_tools', arguments: { query: 'sum' } }],
      },
      { role: 'tool', toolCallId: 'call_0', name: 'discover_tools', content: '{"status":"success"}' },
    ];
    const reply = await model.generate({ messages, tools: [sumTool] });

    expect(reply).toEqual({ toolCalls: [{ id: 'call_1', name: sumTool.name, arguments: { a: 1, b: 2 } }] });
    const [request] = stub.requests;
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe('Bearer sk-test');
    expect(request?.body.model).toBe('test-model');
    expect(request?.body.tools).toEqual([
      {
        type: 'function',
        function: expect.objectContaining({ name: sumTool.name, description: sumTool.description }),
      },
    ]);
    expect(request?.body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'add 1 and 2' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_0',
            type: 'function',
            function: { name: 'discover_tools', arguments: '{"query":"sum"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_0', content: '{"status":"success"}' },
    ]);
  });

  it('returns text when the model answers without tools', async () => {
    stub = await startProviderStub([{ body: { choices: [{ message: { content: 'It is 3.' } }] } }]);
    const model = createOpenAIModel({ apiKey: 'sk-test', baseUrl: stub.baseUrl });
    expect(await model.generate({ messages: [{ role: 'user', content: 'hi' }], tools: [] })).toEqual({
      text: 'It is 3.',
    });
    expect(stub.requests[0]?.body).not.toHaveProperty('tools');
  });

  it('reports an HTTP error with the status and body, never the key', async () => {
    stub = await startProviderStub([{ status: 401, body: { error: { message: 'invalid model' } } }]);
    const model = createOpenAIModel({ apiKey: 'sk-secret-value', baseUrl: stub.baseUrl });
    const failure = model.generate({ messages: [{ role: 'user', content: 'hi' }], tools: [] });
    await expect(failure).rejects.toThrow(/answered 401: .*invalid model/);
    await expect(failure).rejects.not.toThrow(/sk-secret-value/);
  });
});
