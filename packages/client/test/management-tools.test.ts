import { join } from 'node:path';
import { createTemporaryDirectories, everythingStdio, serverScript } from '@switchboard/test-helpers';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ApprovalPrompt,
  ClientError,
  connectMcp,
  createManagementTools,
  type ManagementTool,
  type McpConnection,
} from '../src/index.js';
import { processesWithEnvironment, uniqueMarker } from './helpers/servers.js';

const byName = (tools: ManagementTool[]) => Object.fromEntries(tools.map((tool) => [tool.name, tool]));

describe('createManagementTools', () => {
  const open: McpConnection[] = [];
  const temporary = createTemporaryDirectories();
  afterEach(async () => {
    await Promise.all(open.splice(0).map((connection) => connection.close()));
    temporary.removeAll();
  });

  it('connects a configured server, lists, calls through approval and validation, and disconnects', async () => {
    const dir = temporary.make('sb-manage-');
    const prompts: ApprovalPrompt[] = [];
    const connection = await connectMcp(
      { everything: everythingStdio() },
      {
        approval: { mode: 'always', deny: ['delete_*'] },
        approve: (prompt) => {
          prompts.push(prompt);
          return true;
        },
      },
    );
    open.push(connection);
    const memory = {
      command: process.execPath,
      args: [serverScript('server-memory')],
      env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
    };
    const tools = byName(createManagementTools(connection, { servers: { memory } }));
    expect(Object.keys(tools).sort()).toEqual([
      'mcp_call_tool',
      'mcp_connect',
      'mcp_disconnect',
      'mcp_list_tools',
    ]);

    const connected = (await tools.mcp_connect?.execute({ server: 'memory' })) as {
      state: string;
      tools: string[];
    };
    expect(connected.state).toBe('connected');
    expect(connected.tools).toContain('mcp__memory__create_entities');
    expect(connection.servers).toEqual(['everything', 'memory']);

    const listed = (await tools.mcp_list_tools?.execute({
      query: 'create entities in the knowledge graph',
    })) as {
      tools: Array<{ name: string }>;
    };
    expect(listed.tools[0]?.name).toMatch(/^mcp__memory__/);
    const everythingOnly = (await tools.mcp_list_tools?.execute({ server: 'everything' })) as {
      tools: Array<{ name: string }>;
    };
    expect(everythingOnly.tools.every((tool) => tool.name.startsWith('mcp__everything__'))).toBe(true);

    const created = await tools.mcp_call_tool?.execute({
      name: 'mcp__memory__create_entities',
      arguments: { entities: [{ name: 'Switchboard', entityType: 'project', observations: ['managed'] }] },
    });
    expect(JSON.stringify(created)).toContain('Switchboard');
    // The approval callback saw it: the same policy as a direct call.
    expect(prompts.map((prompt) => prompt.name)).toContain('mcp__memory__create_entities');
    // The same validation as a direct call.
    await expect(
      tools.mcp_call_tool?.execute({ name: 'mcp__memory__create_entities', arguments: { entities: 'nope' } }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    // The same approval policy as a direct call: a denied tool does not run.
    await expect(
      tools.mcp_call_tool?.execute({
        name: 'mcp__memory__delete_entities',
        arguments: { entityNames: ['Switchboard'] },
      }),
    ).rejects.toMatchObject({ code: 'APPROVAL_DENIED' });
    const read = await tools.mcp_call_tool?.execute({ name: 'mcp__memory__read_graph', arguments: {} });
    expect(JSON.stringify(read)).toContain('managed');

    expect(await tools.mcp_disconnect?.execute({ server: 'memory' })).toEqual({
      server: 'memory',
      disconnected: true,
    });
    expect(connection.servers).toEqual(['everything']);
    expect(Object.keys(connection.tools).some((name) => name.startsWith('mcp__memory__'))).toBe(false);
    await expect(
      tools.mcp_call_tool?.execute({ name: 'mcp__memory__read_graph', arguments: {} }),
    ).rejects.toMatchObject({ code: 'TOOL_NOT_FOUND' });
    await expect(tools.mcp_disconnect?.execute({ server: 'memory' })).rejects.toMatchObject({
      code: 'SERVER_NOT_FOUND',
    });
    // The client's own codes come as ClientErrors, as its README says: the management tools' checks too.
    for (const [tool, args] of [
      ['mcp_call_tool', { name: 'mcp__everything__echo', arguments: 'nope' }],
      ['mcp_connect', { server: 42 }],
      ['mcp_disconnect', { server: 'memory' }],
    ] as const) {
      const error = await tools[tool]?.execute(args).catch((caught: unknown) => caught);
      expect(error, tool).toBeInstanceOf(ClientError);
    }
    // Configured, so it can come back by name.
    const again = (await tools.mcp_connect?.execute({ server: 'memory' })) as { state: string };
    expect(again.state).toBe('connected');
  });

  it('uses a selector for queries when one is given', async () => {
    const connection = await connectMcp({ everything: everythingStdio() });
    open.push(connection);
    const queries: string[] = [];
    const tools = byName(
      createManagementTools(connection, {
        selector: {
          async select(query, { k }) {
            queries.push(`${query}:${k}`);
            return [{ name: 'mcp__everything__echo' }, { name: 'not_a_tool_here' }];
          },
        },
      }),
    );
    const listed = (await tools.mcp_list_tools?.execute({ query: 'repeat my words', limit: 3 })) as {
      tools: Array<{ name: string }>;
    };
    expect(queries).toEqual(['repeat my words:3']);
    expect(listed.tools.map((tool) => tool.name)).toEqual(['mcp__everything__echo']);
  });

  it('refuses new commands by default and ones off the allowlist, starting nothing', async () => {
    const connection = await connectMcp({ everything: everythingStdio() });
    open.push(connection);
    const marker = uniqueMarker();
    const refused = byName(createManagementTools(connection));
    await expect(
      refused.mcp_connect?.execute({
        server: 'extra',
        command: process.execPath,
        args: [serverScript('server-memory')],
      }),
    ).rejects.toMatchObject({ code: 'NEW_SERVER_NOT_ALLOWED' });

    const allowing = byName(
      createManagementTools(connection, { allowNewServers: { commands: [process.execPath] } }),
    );
    await expect(
      allowing.mcp_connect?.execute({ server: 'shell', command: 'bash', args: ['-c', `echo ${marker}`] }),
    ).rejects.toMatchObject({ code: 'COMMAND_NOT_ALLOWED', message: expect.stringContaining('"bash"') });
    await expect(
      allowing.mcp_connect?.execute({ server: 'web', url: 'https://example.invalid/mcp' }),
    ).rejects.toMatchObject({ code: 'URL_NOT_ALLOWED' });
    expect(connection.servers).toEqual(['everything']);
    expect(processesWithEnvironment(marker)).toHaveLength(0);

    // An allowed command really starts, and its tools can be called.
    const added = (await allowing.mcp_connect?.execute({
      server: 'extra',
      command: process.execPath,
      args: [serverScript('server-everything'), 'stdio'],
    })) as { state: string; tools: string[] };
    expect(added.state).toBe('connected');
    expect(added.tools).toContain('mcp__extra__echo');
    const echoed = await allowing.mcp_call_tool?.execute({
      name: 'mcp__extra__echo',
      arguments: { message: 'hi' },
    });
    expect(JSON.stringify(echoed)).toContain('hi');
    await expect(
      allowing.mcp_connect?.execute({ server: 'extra', command: process.execPath }),
    ).rejects.toMatchObject({ code: 'SERVER_EXISTS' });
  });
});
