/** What an adapter takes tools from: a connection, its registry, a list or a selection. */
import { createToolRegistry, type RegisteredTool } from '@switchboard/core';
import { everythingStdio } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolsOf } from '../../src/framework-adapter/tool-source.js';
import { connectMcp, type McpConnection } from '../../src/index.js';

describe('toolsOf', () => {
  let connection: McpConnection;
  beforeAll(async () => {
    connection = await connectMcp(
      { everything: everythingStdio() },
      { approval: { mode: 'annotations', deny: ['get-env'] } },
    );
    connection.registry.register({
      server: 'switchboard',
      name: 'discover_tools',
      publicName: 'discover_tools',
      description: 'Finds tools',
      inputSchema: { type: 'object', properties: {} },
      execute: async () => 'found',
    });
  });
  afterAll(async () => {
    await connection.close();
  });

  it('reads a connection’s server tools, leaving out what the policy denies', () => {
    const names = toolsOf(connection).map((tool) => tool.name);
    expect(names).toContain('mcp__everything__echo');
    expect(names).not.toContain('mcp__everything__get-env');
    expect(names).not.toContain('discover_tools');
    expect(toolsOf(connection, { includeDenied: true }).map((tool) => tool.name)).toContain(
      'mcp__everything__get-env',
    );
  });

  it('reads a registry whole, local tools included, live', () => {
    const names = toolsOf(connection.registry).map((tool) => tool.name);
    expect(names).toContain('discover_tools');
    expect(names).toContain('mcp__everything__echo');
    connection.registry.unregister('discover_tools');
    expect(toolsOf(connection.registry).map((tool) => tool.name)).not.toContain('discover_tools');
  });

  it('takes a list or a selection, in its order, and skips listing-only tools', () => {
    const echo = connection.tools['mcp__everything__echo'] as RegisteredTool;
    const sum = connection.tools['mcp__everything__get-sum'] as RegisteredTool;
    const listed = createToolRegistry().register({
      server: 'catalogue',
      name: 'listed_only',
      description: 'no execute',
      inputSchema: { type: 'object' },
    });
    expect(toolsOf([sum, listed, echo]).map((tool) => tool.name)).toEqual([sum.name, echo.name]);
    expect(toolsOf([{ tool: echo }, { tool: sum }]).map((tool) => tool.name)).toEqual([echo.name, sum.name]);
  });
});
