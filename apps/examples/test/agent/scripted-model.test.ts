import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/agent/model-adapter.js';
import { createScriptedModel } from '../../src/agent/scripted-model.js';

const tool = (name: string) => ({ name, description: '', inputSchema: { type: 'object' } });
const model = createScriptedModel([
  {
    match: /weather/,
    steps: [{ tool: 'get_forecast', arguments: { city: 'Oslo' }, discover: 'weather forecast' }],
  },
]);
const ok = (message: string) => JSON.stringify({ status: 'success', message });

describe('createScriptedModel', () => {
  const ask: ChatMessage = { role: 'user', content: 'weather in Oslo?' };

  it('calls the tool by its public name when it is on offer', async () => {
    const reply = await model.generate({ messages: [ask], tools: [tool('mcp__weather__get_forecast')] });
    expect(reply.toolCalls).toEqual([
      { id: expect.any(String), name: 'mcp__weather__get_forecast', arguments: { city: 'Oslo' } },
    ]);
  });

  it('calls discover_tools when the tool is not on offer, and gives up if discovery did not find it', async () => {
    const first = await model.generate({ messages: [ask], tools: [tool('discover_tools')] });
    expect(first.toolCalls?.[0]).toMatchObject({
      name: 'discover_tools',
      arguments: { query: 'weather forecast' },
    });
    const afterDiscovery: ChatMessage[] = [
      ask,
      { role: 'assistant', toolCalls: first.toolCalls ?? [] },
      { role: 'tool', toolCallId: 'x', name: 'discover_tools', content: ok('nothing') },
    ];
    const second = await model.generate({ messages: afterDiscovery, tools: [tool('discover_tools')] });
    expect(second).toEqual({ text: 'I could not find a tool to weather forecast.' });
  });

  it('answers from the tool results once every step ran', async () => {
    const messages: ChatMessage[] = [
      ask,
      { role: 'assistant', toolCalls: [{ id: 'a', name: 'mcp__weather__get_forecast', arguments: {} }] },
      { role: 'tool', toolCallId: 'a', name: 'mcp__weather__get_forecast', content: ok('Sunny, 12 °C') },
    ];
    expect(await model.generate({ messages, tools: [] })).toEqual({ text: 'Done: Sunny, 12 °C' });
  });

  it('refuses requests no script matches', async () => {
    const reply = await model.generate({ messages: [{ role: 'user', content: 'sing' }], tools: [] });
    expect(reply.text).toMatch(/no script/);
  });
});
