import { describe, expect, it } from 'vitest';
import { toAnthropicTool } from '../../src/index.js';
import { recursiveTree, rootUnion } from '../fixtures/hard-schemas.js';

describe('toAnthropicTool', () => {
  it('passes a full JSON Schema through, references and all', () => {
    const { result, lossy } = toAnthropicTool({
      name: 'tree',
      description: 'Trees',
      inputSchema: recursiveTree,
    });
    expect(result).toEqual({ name: 'tree', description: 'Trees', input_schema: recursiveTree });
    expect(result.input_schema).not.toBe(recursiveTree);
    expect(lossy).toEqual([]);
  });

  it('normalises a root union into one object and says so', () => {
    const { result, lossy } = toAnthropicTool({ name: 'find', title: 'Find things', inputSchema: rootUnion });
    expect(result.description).toBe('Find things');
    expect(result.input_schema).toEqual({
      type: 'object',
      properties: { id: { type: 'string' }, query: { type: 'string' }, limit: { type: 'integer' } },
    });
    expect(lossy).toEqual([expect.objectContaining({ path: '/anyOf', kind: 'union-flattened' })]);
  });

  it('adds type object to a root without a type', () => {
    const { result, lossy } = toAnthropicTool({
      name: 'x',
      inputSchema: { properties: { a: { type: 'string' } } },
    });
    expect(result.input_schema).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
    expect(lossy).toEqual([]);
  });
});
