// The answers of a client-side tool search in each provider's shape: Anthropic's tool_result of
// tool_reference blocks (or a text when nothing fits), OpenAI's tool_search_output of loaded
// namespaces (only the functions found, without defer_loading).
import { describe, expect, it } from 'vitest';
import {
  noToolFoundText,
  type OpenAINamespaceTool,
  toAnthropicToolReferences,
  toOpenAIToolSearchOutput,
  toolSearchDefaults,
} from '../src/index.js';

describe('toAnthropicToolReferences', () => {
  it('gives one tool_reference per tool found, in order', () => {
    expect(toAnthropicToolReferences('toolu_1', ['b', 'a'])).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: [
        { type: 'tool_reference', tool_name: 'b' },
        { type: 'tool_reference', tool_name: 'a' },
      ],
    });
  });

  it('says that no tool fits instead of an empty result', () => {
    expect(toAnthropicToolReferences('toolu_2', []).content).toEqual([
      { type: 'text', text: noToolFoundText },
    ]);
    expect(toAnthropicToolReferences('toolu_3', [], { emptyText: 'none' }).content).toEqual([
      { type: 'text', text: 'none' },
    ]);
  });
});

describe('toOpenAIToolSearchOutput', () => {
  const fn = (name: string) => ({
    type: 'function' as const,
    name,
    parameters: { type: 'object' },
    defer_loading: true,
  });
  const crm: OpenAINamespaceTool = {
    type: 'namespace',
    name: 'crm',
    description: 'CRM',
    tools: [fn('a'), fn('b'), fn('c')],
  };
  const mail: OpenAINamespaceTool = {
    type: 'namespace',
    name: 'mail',
    description: 'Mail',
    tools: [fn('d')],
  };

  it('loads only the functions found, grouped in their namespaces, without defer_loading', () => {
    const output = toOpenAIToolSearchOutput('call_1', [
      { namespace: crm, tool: fn('c') },
      { namespace: mail, tool: fn('d') },
      { namespace: crm, tool: fn('a') },
    ]);
    expect(output).toEqual({
      type: 'tool_search_output',
      call_id: 'call_1',
      execution: 'client',
      status: 'completed',
      tools: [
        {
          type: 'namespace',
          name: 'crm',
          description: 'CRM',
          tools: [
            { type: 'function', name: 'c', parameters: { type: 'object' } },
            { type: 'function', name: 'a', parameters: { type: 'object' } },
          ],
        },
        {
          type: 'namespace',
          name: 'mail',
          description: 'Mail',
          tools: [{ type: 'function', name: 'd', parameters: { type: 'object' } }],
        },
      ],
    });
    expect(crm.tools[0]?.defer_loading).toBe(true);
    expect(toOpenAIToolSearchOutput('call_2', []).tools).toEqual([]);
  });

  it('keeps its defaults in one frozen table', () => {
    expect(toolSearchDefaults).toMatchObject({
      limit: 3,
      maxLimit: 10,
      minSimilarity: 0.5,
      unlessWordsMatch: true,
    });
    expect(Object.isFrozen(toolSearchDefaults)).toBe(true);
  });
});
