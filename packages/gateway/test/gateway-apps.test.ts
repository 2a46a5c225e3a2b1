/**
 * MCP Apps through a gateway, against the official example App servers from npm and official
 * clients of both eras downstream (SDK v2 pinned to 2026-07-28, SDK v2 in its 2025 mode, SDK v1):
 * - transparent: each app tool's `_meta` and its `ui://` resource (listing and read contents)
 *   arrive as a direct connection to the upstream sees them;
 * - two copies of one App server: the colliding URI is served per upstream as
 *   `ui://<server>+…`, the same in the tools' `_meta.ui` (both spellings) and in the resources, and
 *   reading the URI a tool names gives that upstream's HTML;
 * - an app's own call, made with its upstream's tool name, reaches that upstream; refused by name
 *   when two app upstreams offer it;
 * - with a selector (`--select`), app-only tools are never listed nor found, yet stay callable.
 */
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { connectMcp, type McpConnection } from '@switchboard/client';
import { mcpAppsExtensionId } from '@switchboard/core';
import { type ServeHandle, serve } from '@switchboard/server';
import { appServerStdio, type OfficialAppServer } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createGateway, type Gateway } from '../src/index.js';
import { connectDownstream, type DownstreamKind } from './fixtures/downstream-clients.js';

const kinds: DownstreamKind[] = ['modern', 'v2-legacy', 'v1'];

type Tool = { name: string; _meta?: Record<string, unknown> };
type Resource = { uri: string; name?: string; mimeType?: string; _meta?: Record<string, unknown> };
type Contents = Array<{ uri: string; mimeType?: string; text?: string; _meta?: unknown }>;

/** What a direct connection (SDK v1 over stdio) to an official App server sees. */
interface Direct {
  tools: Map<string, Tool>;
  resources: Resource[];
  contents: Map<string, Contents>;
}

async function direct(name: OfficialAppServer): Promise<Direct> {
  const entry = appServerStdio(name);
  const client = new V1Client({ name: 'direct', version: '1.0.0' });
  await client.connect(new V1Stdio({ command: entry.command, args: entry.args, stderr: 'ignore' }));
  try {
    const tools = (await client.listTools()).tools as Tool[];
    const resources = (await client.listResources()).resources as Resource[];
    const contents = new Map<string, Contents>();
    for (const resource of resources) {
      contents.set(resource.uri, (await client.readResource({ uri: resource.uri })).contents as Contents);
    }
    return { tools: new Map(tools.map((tool) => [tool.name, tool])), resources, contents };
  } finally {
    await client.close();
  }
}

/** The downstream's view through the gateway. */
async function downstream(kind: DownstreamKind, url: string) {
  const client = await connectDownstream(kind, url);
  const raw = client.raw as V1Client;
  return {
    capabilities: raw.getServerCapabilities() as { extensions?: Record<string, unknown> } | undefined,
    tools: async () => new Map(((await raw.listTools()).tools as Tool[]).map((tool) => [tool.name, tool])),
    resources: async () => (await raw.listResources()).resources as Resource[],
    read: async (uri: string) => (await raw.readResource({ uri })).contents as Contents,
    call: (name: string, args: Record<string, unknown> = {}) => client.call(name, args),
    close: () => client.close(),
  };
}

/** A listed resource as a relay must keep it: all but the gateway's `switchboard/server` note. */
function withoutServerNote({ _meta, ...resource }: Resource): Resource {
  const { 'switchboard/server': _server, ...rest } = _meta ?? {};
  return Object.keys(rest).length > 0 ? { ...resource, _meta: rest } : resource;
}

async function startGateway(
  servers: Record<string, ReturnType<typeof appServerStdio>>,
  options: Partial<Parameters<typeof createGateway>[0]> = {},
) {
  const clients = await connectMcp(servers);
  const gateway = await createGateway({ clients, allowApprovalTools: true, ...options });
  const handle = await serve(gateway, { transport: { type: 'http', port: 0 } });
  return {
    clients,
    gateway,
    url: handle.url as string,
    async close() {
      await handle.close();
      await gateway.close();
      await clients.close();
    },
  };
}

describe('app servers behind a gateway', () => {
  let references: Record<'basic' | 'monitor' | 'budget', Direct>;
  let started: Awaited<ReturnType<typeof startGateway>>;
  beforeAll(async () => {
    const [basic, monitor, budget] = await Promise.all([
      direct('server-basic-vanillajs'),
      direct('server-system-monitor'),
      direct('server-budget-allocator'),
    ]);
    references = { basic, monitor, budget };
    started = await startGateway({
      basic: appServerStdio('server-basic-vanillajs'),
      monitor: appServerStdio('server-system-monitor'),
      budget: appServerStdio('server-budget-allocator'),
    });
  }, 120_000);
  afterAll(async () => {
    await started?.close();
  });

  for (const kind of kinds) {
    test(`${kind}: tools' _meta and ui:// resources arrive as a direct connection sees them`, async () => {
      const client = await downstream(kind, started.url);
      try {
        expect(client.capabilities?.extensions?.[mcpAppsExtensionId]).toEqual({});
        const tools = await client.tools();
        const resources = new Map((await client.resources()).map((resource) => [resource.uri, resource]));
        for (const [server, reference] of Object.entries(references)) {
          for (const [name, tool] of reference.tools) {
            expect(tools.get(`mcp__${server}__${name}`)?._meta, `${server}/${name}`).toEqual(tool._meta);
          }
          for (const resource of reference.resources) {
            expect(withoutServerNote(resources.get(resource.uri) as Resource)).toEqual(resource);
            expect(await client.read(resource.uri)).toEqual(reference.contents.get(resource.uri));
          }
        }
        // The app-only poller is listed (the host keeps it from its model) and callable.
        expect(tools.get('mcp__monitor__poll-system-stats')?._meta).toEqual({ ui: { visibility: ['app'] } });
      } finally {
        await client.close();
      }
    });
  }

  test('an app’s own call with its upstream’s tool name reaches that upstream', async () => {
    const client = await downstream('modern', started.url);
    try {
      // The system monitor's app polls by its server's name; the budget app reads its data so.
      const polled = await client.call('poll-system-stats');
      expect(polled.isError).not.toBe(true);
      expect(JSON.stringify(polled.structuredContent ?? polled.content)).toContain('cpu');
      const budget = await client.call('get-budget-data');
      expect(budget.isError).not.toBe(true);
      // Not a name of an app upstream's tool: unknown, as before.
      await expect(client.call('no-such-tool')).rejects.toThrow(/Unknown tool "no-such-tool"/);
    } finally {
      await client.close();
    }
  });
});

describe('two copies of one App server behind a gateway', () => {
  let reference: Direct;
  let started: Awaited<ReturnType<typeof startGateway>>;
  beforeAll(async () => {
    reference = await direct('server-system-monitor');
    started = await startGateway({
      east: appServerStdio('server-system-monitor'),
      west: appServerStdio('server-system-monitor'),
    });
  }, 120_000);
  afterAll(async () => {
    await started?.close();
  });

  for (const kind of kinds) {
    test(`${kind}: the colliding ui:// URI is renamed per upstream, alike in tools and resources`, async () => {
      const client = await downstream(kind, started.url);
      try {
        const tools = await client.tools();
        const [directUri] = reference.resources.map((resource) => resource.uri);
        const directContents = reference.contents.get(directUri as string) as Contents;
        const listed = (await client.resources()).map((resource) => resource.uri).sort();
        expect(listed).toEqual([
          'ui://east+system-monitor/mcp-app.html',
          'ui://west+system-monitor/mcp-app.html',
        ]);
        for (const server of ['east', 'west']) {
          const renamed = `ui://${server}+system-monitor/mcp-app.html`;
          // Both spellings renamed, every other field of `_meta` kept.
          expect(tools.get(`mcp__${server}__get-system-info`)?._meta).toEqual({
            ui: { resourceUri: renamed },
            'ui/resourceUri': renamed,
          });
          expect(tools.get(`mcp__${server}__poll-system-stats`)?._meta).toEqual({
            ui: { visibility: ['app'] },
          });
          // The URI a tool names is one the resources answer to, with the upstream's HTML.
          const contents = await client.read(renamed);
          expect(contents).toEqual(directContents.map((content) => ({ ...content, uri: renamed })));
        }
      } finally {
        await client.close();
      }
    });
  }

  test('an app call by a name both upstreams offer is refused, naming them; public names still work', async () => {
    const client = await downstream('modern', started.url);
    try {
      await expect(client.call('poll-system-stats')).rejects.toThrow(
        /offered by the apps of upstream servers "east" and "west"/,
      );
      const east = await client.call('mcp__east__poll-system-stats');
      expect(east.isError).not.toBe(true);
    } finally {
      await client.close();
    }
  });

  test('a second copy arriving later renames the first one’s URI, and leaving names it back', async () => {
    const clients = await connectMcp({ east: appServerStdio('server-system-monitor') });
    const gateway: Gateway = await createGateway({ clients, allowApprovalTools: true });
    const handle: ServeHandle = await serve(gateway, { transport: { type: 'http', port: 0 } });
    const uriOf = (name: string) =>
      (gateway.getTool(name)?._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri;
    try {
      expect(uriOf('mcp__east__get-system-info')).toBe('ui://system-monitor/mcp-app.html');
      await (clients as McpConnection).addServer('west', appServerStdio('server-system-monitor'));
      expect(uriOf('mcp__east__get-system-info')).toBe('ui://east+system-monitor/mcp-app.html');
      expect(uriOf('mcp__west__get-system-info')).toBe('ui://west+system-monitor/mcp-app.html');
      await (clients as McpConnection).removeServer('west');
      expect(uriOf('mcp__east__get-system-info')).toBe('ui://system-monitor/mcp-app.html');
    } finally {
      await handle.close();
      await gateway.close();
      await clients.close();
    }
  });
});

describe('app-only tools with a selector (switchboard serve --select)', () => {
  let started: Awaited<ReturnType<typeof startGateway>>;
  const selected: string[] = [];
  beforeAll(async () => {
    // A selector that returns every upstream tool, app-only ones included: the gateway must still
    // keep those from the downstream's list.
    const selector = {
      select: async () => {
        const names = started.clients.registry.list().map((tool) => ({ name: tool.name, score: 1 }));
        selected.push(...names.map((hit) => hit.name));
        return names;
      },
    };
    started = await startGateway({ monitor: appServerStdio('server-system-monitor') }, { selector });
  }, 120_000);
  afterAll(async () => {
    await started?.close();
  });

  for (const kind of kinds) {
    test(`${kind}: never listed nor found by discover_tools, yet callable by the app`, async () => {
      const client = await downstream(kind, started.url);
      try {
        const found = await client.call('discover_tools', { query: 'system stats' });
        expect(selected).toContain('mcp__monitor__poll-system-stats');
        const foundNames = (found.structuredContent as { tools: Array<{ name: string }> }).tools.map(
          (t) => t.name,
        );
        expect(foundNames).toEqual(['mcp__monitor__get-system-info']);
        const listed = [...(await client.tools()).keys()];
        expect(listed).toContain('mcp__monitor__get-system-info');
        expect(listed).not.toContain('mcp__monitor__poll-system-stats');
        for (const name of ['poll-system-stats', 'mcp__monitor__poll-system-stats']) {
          const polled = await client.call(name);
          expect(polled.isError, name).not.toBe(true);
        }
        // The app's own call of its model-facing tool, by its upstream name, works too.
        expect((await client.call('get-system-info')).isError).not.toBe(true);
      } finally {
        await client.close();
      }
    });
  }
});
