/**
 * MCP Apps on a connection, against the official example App servers from npm (and an SDK v2
 * server with one tool of each visibility): app metadata kept on every registered tool (both
 * spellings), app-only tools absent from every model-facing list — the registry's, the provider
 * converters, the four framework adapters, the management tools — yet callable; `readResource` of
 * `ui://` through the cross-server catalogue (listed or not, two owners kept apart); and the host
 * helper `openAppView` with the app's own requests routed to its server.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import { mcpAppMimeType } from '@switchboard/core';
import { appServerStdio } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toAISDKTools } from '../src/ai-sdk/index.js';
import {
  ClientError,
  connectMcp,
  createManagementTools,
  type McpConnection,
  openAppView,
  toAnthropicTools,
  toGeminiTools,
  toOpenAITools,
} from '../src/index.js';
import { toLangChainTools } from '../src/langchain/index.js';
import { toMastraTools } from '../src/mastra/index.js';
import { toOpenAIAgentsTools } from '../src/openai-agents/index.js';
import { fixture } from './helpers/servers.js';

const cards = { command: process.execPath, args: [fixture('app-visibility-server.mjs')] };
const poller = 'mcp__monitor__poll-system-stats';

let connection: McpConnection;
const approvals: string[] = [];

beforeAll(async () => {
  connection = await connectMcp(
    {
      monitor: appServerStdio('server-system-monitor'),
      budget: appServerStdio('server-budget-allocator'),
      cards,
    },
    {
      // Every tool of these servers asks (no annotations): a person says yes, and we see who asked.
      approve: async ({ name }) => {
        approvals.push(name);
        return true;
      },
    },
  );
}, 120_000);

afterAll(async () => {
  await connection?.close();
});

const names = (tools: Iterable<{ name: string }>) => [...tools].map((tool) => tool.name);
/** A public name as the provider-safe names of adapters and converters write it. */
const providerName = (name: string) => name.replace(/-/g, '_');

describe('app metadata on registered tools', () => {
  it('keeps _meta.ui (and the legacy flat key) typed on each tool, as the servers listed it', () => {
    expect(connection.tools['mcp__monitor__get-system-info']?.app).toEqual({
      resourceUri: 'ui://system-monitor/mcp-app.html',
    });
    expect(connection.tools[poller]?.app).toEqual({ visibility: ['app'] });
    expect(connection.tools['mcp__budget__get-budget-data']?.app?.resourceUri).toBe(
      'ui://budget-allocator/mcp-app.html',
    );
    // Legacy spelling only; and the wire `_meta` itself is kept beside it.
    expect(connection.tools['mcp__cards__show-card']?.app).toEqual({ resourceUri: 'ui://cards/card.html' });
    expect(connection.tools['mcp__cards__show-card']?.meta).toEqual({
      _meta: { 'ui/resourceUri': 'ui://cards/card.html' },
    });
    expect(connection.tools['mcp__cards__model-only']?.app?.visibility).toEqual(['model']);
  });
});

describe('app-only tools never reach a model', () => {
  const hidden = [poller, 'mcp__cards__flip-card'];

  it('are left out of the registry’s model-facing list, and only there', () => {
    const all = names(connection.registry.list());
    const facing = names(connection.registry.list({ modelFacing: true }));
    for (const name of hidden) {
      expect(all).toContain(name);
      expect(facing).not.toContain(name);
    }
    expect(facing).toContain('mcp__monitor__get-system-info');
    expect(facing).toContain('mcp__cards__model-only');
  });

  it('are left out of toOpenAITools, toAnthropicTools and toGeminiTools', () => {
    const openai = toOpenAITools(connection);
    const anthropic = toAnthropicTools(connection);
    const gemini = toGeminiTools(connection);
    const offered = [
      names(openai.tools),
      names(anthropic.tools),
      names(gemini.tools[0]?.functionDeclarations ?? []),
      [...openai.toolsByName.values()].map((tool) => tool.name),
    ];
    for (const list of offered) {
      expect(list.map(providerName)).toContain(providerName('mcp__monitor__get-system-info'));
      for (const name of hidden) expect(list.map(providerName)).not.toContain(providerName(name));
    }
  });

  it('are left out of the AI SDK, LangChain, OpenAI Agents and Mastra tools', () => {
    const lists = [
      Object.keys(toAISDKTools(connection)),
      names(toLangChainTools(connection)),
      names(toOpenAIAgentsTools(connection)),
      Object.keys(toMastraTools(connection)),
    ];
    for (const list of lists) {
      expect(list.map(providerName)).toContain(providerName('mcp__monitor__get-system-info'));
      for (const name of hidden) expect(list.map(providerName)).not.toContain(providerName(name));
    }
  });

  it('are left out of mcp_list_tools, and mcp_call_tool refuses them with a code', async () => {
    const tools = Object.fromEntries(createManagementTools(connection).map((tool) => [tool.name, tool]));
    const listed = (await tools.mcp_list_tools?.execute({ limit: 50 })) as { tools: Array<{ name: string }> };
    expect(names(listed.tools)).toContain('mcp__monitor__get-system-info');
    for (const name of hidden) expect(names(listed.tools)).not.toContain(name);
    await expect(tools.mcp_call_tool?.execute({ name: poller })).rejects.toMatchObject({
      code: 'TOOL_NOT_FOR_MODEL',
    });
  });

  it('stay callable (an app calls them through its host)', async () => {
    const result = (await connection.callTool(poller, {}, { rawResult: true })) as CallToolResult;
    expect(result.isError).not.toBe(true);
    expect(JSON.stringify(result.structuredContent ?? result.content)).toContain('cpu');
  });
});

describe('readResource of ui:// through the cross-server catalogue', () => {
  it('reads app resources the servers list, and one its server leaves unlisted (found through the tools)', async () => {
    const monitor = await connection.readResource('ui://system-monitor/mcp-app.html');
    expect(monitor.contents[0]?.mimeType).toBe(mcpAppMimeType);
    expect(String((monitor.contents[0] as { text?: string }).text)).toContain('<html');
    expect(
      names(await connection.listResources().then((list) => list.map((r) => ({ name: r.uri })))),
    ).not.toContain('ui://cards/card.html');
    const card = await connection.readResource('ui://cards/card.html');
    expect(card.contents[0]).toMatchObject({ uri: 'ui://cards/card.html', mimeType: mcpAppMimeType });
  });

  it('keeps two servers’ same ui:// URI apart as ui://<server>+…, in the list and in reads', async () => {
    const two = await connectMcp({
      east: appServerStdio('server-system-monitor'),
      west: appServerStdio('server-system-monitor'),
    });
    try {
      const uris = (await two.listResources()).map((resource) => resource.uri).sort();
      expect(uris).toEqual([
        'ui://east+system-monitor/mcp-app.html',
        'ui://west+system-monitor/mcp-app.html',
      ]);
      const east = await two.readResource('ui://east+system-monitor/mcp-app.html');
      // The contents carry the URI asked for; the HTML is the server's.
      expect(east.contents[0]?.uri).toBe('ui://east+system-monitor/mcp-app.html');
      expect(east.contents[0]?.mimeType).toBe(mcpAppMimeType);
      // Ambiguous as the server gave it: the catalogue says so rather than guess.
      await expect(two.readResource('ui://system-monitor/mcp-app.html')).rejects.toMatchObject({
        code: 'RESOURCE_NOT_FOUND',
      });
    } finally {
      await two.close();
    }
  });
});

describe('openAppView', () => {
  it('returns the resource with its _meta.ui, the input and result, and routes the app’s own requests', async () => {
    approvals.length = 0;
    const view = await openAppView(connection, { name: 'mcp__cards__show-card', arguments: {} });
    expect(view.tool.server).toBe('cards');
    expect(view.resource).toEqual({
      uri: 'ui://cards/card.html',
      html: '<!doctype html><html><body><div id="card">card</div></body></html>',
      meta: { csp: { connectDomains: ['https://cards.example.com'] }, prefersBorder: true },
    });
    expect(view.toolInput).toEqual({ arguments: {} });
    expect(view.toolResult.structuredContent).toEqual({ face: 'up' });

    // The app's tools/call: by its server's tool name, through the connection's approval.
    const flipped = (await view.handleAppRequest({
      method: 'tools/call',
      params: { name: 'flip-card', arguments: {} },
    })) as CallToolResult;
    expect(flipped.content).toEqual([{ type: 'text', text: expect.stringMatching(/^flipped \d+$/) }]);
    expect(approvals).toEqual(['mcp__cards__show-card', 'mcp__cards__flip-card']);

    const read = (await view.handleAppRequest({
      method: 'resources/read',
      params: { uri: 'ui://cards/card.html' },
    })) as { contents: Array<{ uri: string }> };
    expect(read.contents[0]?.uri).toBe('ui://cards/card.html');
    expect(await view.handleAppRequest({ method: 'ping' })).toEqual({});
  });

  it('refuses what the spec keeps from apps, with a code', async () => {
    const view = await openAppView(connection, {
      name: 'mcp__cards__show-card',
      result: { content: [{ type: 'text', text: 'already ran' }] },
    });
    expect(view.toolResult.content).toEqual([{ type: 'text', text: 'already ran' }]);
    const refusal = (request: { method: string; params?: unknown }) =>
      view.handleAppRequest(request).then(
        () => undefined,
        (error: unknown) => error,
      );
    for (const request of [
      { method: 'tools/call', params: { name: 'model-only' } }, // visibility ["model"]
      { method: 'tools/call', params: { name: 'get-budget-data' } }, // another server's tool
      { method: 'tools/call', params: { name: 'mcp__cards__flip-card' } }, // a public name
      { method: 'sampling/createMessage', params: {} },
    ]) {
      const error = await refusal(request);
      expect(error, JSON.stringify(request)).toBeInstanceOf(ClientError);
      expect((error as ClientError).code).toBe('APP_REQUEST_REFUSED');
    }
  });

  it('says which tool has no app', async () => {
    await expect(openAppView(connection, { name: poller })).rejects.toMatchObject({ code: 'APP_NOT_FOUND' });
    await expect(openAppView(connection, { name: 'nope' })).rejects.toMatchObject({ code: 'TOOL_NOT_FOUND' });
  });

  it('opens an official example app (system monitor): the resource and a real result', async () => {
    const view = await openAppView(connection, { name: 'mcp__monitor__get-system-info' });
    expect(view.resource.uri).toBe('ui://system-monitor/mcp-app.html');
    expect(view.resource.html.length).toBeGreaterThan(10_000);
    expect(view.toolResult.isError).not.toBe(true);
    const polled = (await view.handleAppRequest({
      method: 'tools/call',
      params: { name: 'poll-system-stats' },
    })) as CallToolResult;
    expect(polled.isError).not.toBe(true);
  });
});
