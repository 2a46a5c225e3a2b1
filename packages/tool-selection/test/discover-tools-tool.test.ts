import { createToolRegistry, perStepSearchGuidance, toolSearchQueryDescription } from '@switchboard/core';
import { afterAll, describe, expect, it } from 'vitest';
import { createDiscoverToolsTool, createToolSelector } from '../src/index.js';
import { createFixtureEmbedder, createFixtureModel } from './helpers/fixture-embedder.js';

const model = createFixtureModel();
afterAll(() => model.cleanup());

function setup() {
  const registry = createToolRegistry();
  registry.registerMany('math', [
    {
      name: 'get_sum',
      description: 'Returns the sum of two numbers',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
      },
    },
    {
      name: 'echo',
      description: 'Echoes back the input text',
      inputSchema: { type: 'object', properties: { message: { type: 'string' } } },
    },
  ]);
  const selector = createToolSelector({ registry, embedder: createFixtureEmbedder(model) });
  const tool = createDiscoverToolsTool(selector);
  registry.register(tool);
  return { registry, selector, tool };
}

describe('createDiscoverToolsTool', () => {
  it('registers in a core registry under its own name', async () => {
    const { registry, selector } = setup();
    const registered = registry.get('discover_tools');
    expect(registered?.server).toBe('switchboard');
    expect(registered?.annotations?.readOnlyHint).toBe(true);
    expect(registered?.inputSchema).toMatchObject({ required: ['query'] });
    await selector.close();
  });

  it('returns names, descriptions and input schemas of matching tools, not itself', async () => {
    const { registry, selector } = setup();
    const result = (await registry
      .get('discover_tools')
      ?.execute?.({ query: 'add numbers', limit: 1 })) as Awaited<
      ReturnType<ReturnType<typeof createDiscoverToolsTool>['execute']>
    >;
    expect(result.structuredContent.tools).toHaveLength(1);
    const [found] = result.structuredContent.tools;
    expect(found?.name).toBe('mcp__math__get_sum');
    expect(found?.description).toBe('Returns the sum of two numbers');
    expect(found?.inputSchema).toMatchObject({ required: ['a', 'b'] });
    expect(JSON.parse(result.content[0]?.text ?? '{}').tools[0].name).toBe('mcp__math__get_sum');
    const everything = await registry
      .get('discover_tools')
      ?.execute?.({ query: 'discover tools echo sum numbers', limit: 20 });
    const names = (everything as typeof result).structuredContent.tools.map((item) => item.name);
    expect(names).not.toContain('discover_tools');
    await selector.close();
  });

  it('says when nothing matches and rejects bad arguments clearly', async () => {
    const { tool, selector } = setup();
    const none = await tool.execute({ query: 'qwxz vbnmt' });
    expect(none.structuredContent.tools).toEqual([]);
    expect(none.content[0]?.text).toContain('No tool matches');
    await expect(tool.execute({})).rejects.toThrow(/"query" must be a non-empty string/);
    await expect(tool.execute({ query: 'sum', limit: 0 })).rejects.toThrow(/"limit" must be a whole number/);
    await selector.close();
  });

  it('asks the model to search once per step, and again when a step is not covered', async () => {
    const { tool, selector } = setup();
    expect(tool.description).toContain(perStepSearchGuidance);
    expect(tool.inputSchema).toMatchObject({
      properties: { query: { description: toolSearchQueryDescription } },
    });
    const found = await tool.execute({ query: 'add numbers', limit: 1 });
    expect(JSON.parse(found.content[0]?.text ?? '{}').next).toMatch(/search again with other words/);
    await selector.close();
  });

  it('finds nothing when no tool is similar enough (minSimilarity)', async () => {
    const { registry, selector } = setup();
    const strict = createDiscoverToolsTool(selector, {
      name: 'strict_discover',
      minSimilarity: 1.01,
      unlessWordsMatch: false,
    });
    const none = await strict.execute({ query: 'add numbers' });
    expect(none.structuredContent.tools).toEqual([]);
    expect(none.content[0]?.text).toContain('No tool matches');
    // By default a tool that shares a word with the request is found whatever the cosine;
    // a request sharing no word with any tool still finds nothing.
    const byDefault = createDiscoverToolsTool(selector, { name: 'default_discover', minSimilarity: 1.01 });
    expect(
      (await byDefault.execute({ query: 'add numbers', limit: 1 })).structuredContent.tools,
    ).toHaveLength(1);
    expect((await byDefault.execute({ query: 'qwxz vbnmt' })).structuredContent.tools).toEqual([]);
    const lenient = createDiscoverToolsTool(selector, { name: 'lenient_discover', minSimilarity: -1 });
    expect((await lenient.execute({ query: 'add numbers', limit: 1 })).structuredContent.tools).toHaveLength(
      1,
    );
    expect(registry.get('strict_discover')).toBeUndefined();
    await selector.close();
  });
});
