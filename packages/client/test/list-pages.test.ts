/**
 * The client's four lists walk every page of a server that pages (`nextCursor`): the SDK v2
 * Client's one walker does it for all of them, so no list of ours loops over cursors itself. A
 * server that answers the same page and cursor again ends the walk instead of looping.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpClient, type McpClient } from '../src/index.js';
import { fixture } from './helpers/servers.js';

const pagingServer = (env: Record<string, string> = {}) => ({
  command: process.execPath,
  args: [fixture('paging-server.mjs')],
  env,
});

describe('paged lists', () => {
  const open: McpClient[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close()));
  });

  it('lists every page of tools, resources, resource templates and prompts, in order', async () => {
    const client = await createMcpClient('paging', pagingServer());
    open.push(client);
    const numbers = [1, 2, 3, 4, 5];
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(numbers.map((n) => `tool_${n}`));
    expect((await client.listResources()).map((resource) => resource.uri)).toEqual(
      numbers.map((n) => `page://resource/${n}`),
    );
    expect((await client.listResourceTemplates()).map((template) => template.uriTemplate)).toEqual(
      numbers.map((n) => `page://template/${n}/{id}`),
    );
    expect((await client.listPrompts()).map((prompt) => prompt.name)).toEqual(
      numbers.map((n) => `prompt_${n}`),
    );
  });

  it('stops at a server that answers the same page and cursor again, without repeating its items', async () => {
    const client = await createMcpClient('repeating', pagingServer({ PAGING: 'repeat' }));
    open.push(client);
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(['tool_1', 'tool_2']);
    expect((await client.listResources()).map((resource) => resource.uri)).toEqual([
      'page://resource/1',
      'page://resource/2',
    ]);
    expect((await client.listPrompts()).map((prompt) => prompt.name)).toEqual(['prompt_1', 'prompt_2']);
  });
});
