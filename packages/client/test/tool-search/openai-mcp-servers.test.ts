// Hosted MCP for OpenAI: a config's remote servers as Responses API `mcp` tools, deferred, against a
// real server-everything over Streamable HTTP (and one over stdio, which OpenAI cannot reach). The
// body is checked against the OpenAI SDK's own `Tool` type at compile time.

import { type EverythingHttpServer, everythingStdio, startEverythingHttp } from '@switchboard/test-helpers';
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, type McpConnection, type ServerEntry, toOpenAIMcpServers } from '../../src/index.js';

let http: EverythingHttpServer;
let connection: McpConnection;
let config: Record<string, ServerEntry>;

beforeAll(async () => {
  http = await startEverythingHttp('streamableHttp');
  config = {
    remote: {
      url: http.url,
      headers: { Authorization: 'Bearer remote-secret', 'X-Team': 'blue' },
      // Every call asks but echo's and get-tiny-image's; the include list hides all but three tools.
      approval: { mode: 'always', allow: ['echo', 'get-tiny-image'] },
      includeTools: ['echo', 'get-sum', 'get-tiny-image'],
    },
    local: everythingStdio(),
  };
  connection = await connectMcp(config);
});
afterAll(async () => {
  await connection?.close();
  await http?.close();
});

describe('toOpenAIMcpServers', () => {
  it('makes each reachable remote server a deferred mcp tool with what the connection offers', () => {
    const { tools, skipped } = toOpenAIMcpServers(config, { tools: connection, allowPrivateUrls: true });
    const typed: OpenAI.Responses.Tool[] = tools;
    expect(typed).toHaveLength(1);
    const [remote] = tools;
    const offered = Object.values(connection.tools)
      .filter((tool) => tool.server === 'remote')
      .map((tool) => tool.originalName)
      .sort();
    expect(offered.length).toBeGreaterThan(0);
    expect(remote).toMatchObject({
      type: 'mcp',
      server_label: 'remote',
      server_url: http.url,
      defer_loading: true,
    });
    expect(remote?.server_description).toContain('Tools of the MCP server "remote"');
    expect([...(remote?.allowed_tools ?? [])].sort()).toEqual(offered);
    expect(offered).toEqual(['echo', 'get-sum', 'get-tiny-image']);
    // The token stays with Switchboard unless asked for.
    expect(remote?.headers).toBeUndefined();
    expect(JSON.stringify(tools)).not.toContain('remote-secret');
    expect(skipped).toEqual([{ server: 'local', reason: expect.stringContaining('not a remote server') }]);
  });

  it("asks OpenAI to get approval for the tools whose policy says 'ask'", () => {
    const [remote] = toOpenAIMcpServers(config, { tools: connection, allowPrivateUrls: true }).tools;
    const approval = remote?.require_approval as {
      always?: { tool_names: string[] };
      never?: { tool_names: string[] };
    };
    const askNames = Object.values(connection.tools)
      .filter((tool) => tool.server === 'remote' && tool.approval?.().decision === 'ask')
      .map((tool) => tool.originalName);
    expect(askNames).toEqual(['get-sum']);
    expect(approval.always?.tool_names).toEqual(['get-sum']);
    expect(approval.never?.tool_names?.sort()).toEqual(['echo', 'get-tiny-image']);
  });

  it('leaves out loopback servers OpenAI cannot reach, unless allowed, and says why', () => {
    const { tools, skipped } = toOpenAIMcpServers(config);
    expect(tools).toEqual([]);
    expect(skipped.map((entry) => entry.server).sort()).toEqual(['local', 'remote']);
    expect(skipped.find((entry) => entry.server === 'remote')?.reason).toMatch(/127\.0\.0\.1 is a loopback/);
  });

  it('forwards only the headers named, and keeps a server loaded up front when asked', () => {
    const [remote] = toOpenAIMcpServers(config, {
      allowPrivateUrls: true,
      forwardHeaders: ['x-team'],
      alwaysLoad: ['remote'],
      descriptions: { remote: 'Everything, for tests.' },
    }).tools;
    expect(remote?.headers).toEqual({ 'X-Team': 'blue' });
    expect(remote?.defer_loading).toBeUndefined();
    expect(remote?.server_description).toBe('Everything, for tests.');
    // No tool source: OpenAI may call every tool of the server.
    expect(remote?.allowed_tools).toBeUndefined();
  });

  it('skips a disabled entry, a malformed url and a server whose tools are all held back', () => {
    const { tools, skipped } = toOpenAIMcpServers(
      {
        mcpServers: {
          off: { url: 'https://mcp.example.com/mcp', enabled: false },
          broken: { url: 'not a url' },
          unknown: { url: 'https://mcp.example.com/mcp' },
        },
      },
      { tools: connection },
    );
    expect(tools).toEqual([]);
    expect(Object.fromEntries(skipped.map((entry) => [entry.server, entry.reason]))).toEqual({
      off: expect.stringContaining('enabled: false'),
      broken: expect.stringContaining('is not a URL'),
      unknown: expect.stringContaining('offers none of its tools'),
    });
  });
});
