/**
 * MCP Apps served by `defineTool({ app })`, read by official clients of both eras — the SDK v2
 * client pinned to 2026-07-28, in `auto` mode and in its default (2025) mode, and the SDK v1
 * client — over stateless HTTP, HTTP sessions and stdio (a child process): the extension in the
 * server's capabilities, each tool's `_meta` as the official host helpers read it, the `ui://`
 * resources with their type and `_meta.ui` on the listing and on the read contents, and the
 * app-only helper callable. Then what `defineTool` and `createMcpServer` refuse, and why.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';
import {
  getToolUiResourceUri,
  isToolVisibilityAppOnly,
  RESOURCE_MIME_TYPE,
} from '@modelcontextprotocol/ext-apps/app-bridge';
import { EXTENSION_ID } from '@modelcontextprotocol/ext-apps/server';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mcpAppMimeType, mcpAppsExtensionId, SwitchboardError } from '@switchboard/core';
import { connectInMemory } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createMcpServer, defineTool, type ServeHandle, type ServerError, serve } from '../src/index.js';
import { chartHtml, clockHtml, clockUi, createAppsServer } from './fixtures/apps-server.js';

const fixture = fileURLToPath(new URL('./fixtures/apps-server.ts', import.meta.url));
const counterHtml = new URL('./fixtures/apps/counter.html', import.meta.url);
const uiCapability = { extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } };

type Mode = 'pinned' | 'auto' | 'default' | 'v1';
const modes: Mode[] = ['pinned', 'auto', 'default', 'v1'];

interface Listed {
  name: string;
  _meta?: Record<string, unknown>;
}

/** What an official client saw of the server. */
interface Connected {
  capabilities: Record<string, unknown> | undefined;
  tools(): Promise<Listed[]>;
  resources(): Promise<Array<{ uri: string; mimeType?: string; _meta?: Record<string, unknown> }>>;
  read(uri: string): Promise<Array<{ uri: string; mimeType?: string; text?: string; _meta?: unknown }>>;
  call(name: string): Promise<{ content?: unknown }>;
  close(): Promise<void>;
}

const stdioCommand = { command: process.execPath, args: ['--import', 'tsx', fixture, 'stdio'] };

async function connect(mode: Mode, url: string | undefined): Promise<Connected> {
  const client =
    mode === 'v1'
      ? new V1Client({ name: 'v1-host', version: '1.0.0' }, { capabilities: uiCapability as never })
      : new V2Client({ name: `v2-${mode}`, version: '1.0.0' }, {
          capabilities: uiCapability,
          ...(mode === 'pinned'
            ? { versionNegotiation: { mode: { pin: '2026-07-28' } } }
            : mode === 'auto'
              ? { versionNegotiation: { mode: 'auto' } }
              : {}),
        } as never);
  const transport =
    mode === 'v1'
      ? url
        ? new V1Http(new URL(url))
        : new V1Stdio({ ...stdioCommand, stderr: 'ignore' })
      : url
        ? new V2Http(new URL(url))
        : new V2Stdio({ ...stdioCommand, stderr: 'ignore' });
  await (client as V1Client).connect(transport as never);
  const any = client as unknown as V1Client;
  return {
    capabilities: any.getServerCapabilities() as Record<string, unknown> | undefined,
    tools: async () => (await any.listTools()).tools as Listed[],
    resources: async () => (await any.listResources()).resources as never,
    read: async (uri) => (await any.readResource({ uri })).contents as never,
    call: (name) => any.callTool({ name, arguments: {} }) as never,
    close: () => any.close(),
  };
}

const textOf = (result: { content?: unknown }) =>
  ((result.content as Array<{ text?: string }>) ?? []).map((block) => block.text).join('');

for (const transport of ['stateless HTTP', 'session HTTP', 'stdio'] as const) {
  describe(`MCP Apps to official clients over ${transport}`, () => {
    let handle: ServeHandle | undefined;
    beforeAll(async () => {
      if (transport === 'stdio') return;
      handle = await serve(createAppsServer(), {
        transport: { type: 'http', port: 0, session: transport === 'session HTTP' },
      });
    });
    afterAll(async () => {
      await handle?.close();
    });

    for (const mode of modes) {
      test(`${mode}: the extension declared, tools' _meta, ui:// resources and the app-only helper`, async () => {
        const client = await connect(mode, handle?.url);
        try {
          const extensions = client.capabilities?.extensions as Record<string, unknown> | undefined;
          expect(extensions?.[EXTENSION_ID]).toEqual({});
          const tools = new Map((await client.tools()).map((tool) => [tool.name, tool]));
          // Both spellings, as the official helper of hosts reads them.
          expect(tools.get('show-time')?._meta).toEqual({
            ui: { resourceUri: 'ui://show-time/app.html' },
            'ui/resourceUri': 'ui://show-time/app.html',
          });
          expect(tools.get('increment')?._meta).toEqual({
            ui: { resourceUri: 'ui://counter/view.html', visibility: ['app'] },
            'ui/resourceUri': 'ui://counter/view.html',
          });
          const uris = [...tools.values()].map((tool) => getToolUiResourceUri(tool as never));
          expect(uris).toEqual([
            'ui://counter/view.html',
            'ui://charts/chart.html',
            'ui://counter/view.html',
            'ui://show-time/app.html',
          ]);
          expect(
            [...tools.values()].filter((tool) => isToolVisibilityAppOnly(tool as never)).map((t) => t.name),
          ).toEqual(['increment']);

          const resources = new Map((await client.resources()).map((resource) => [resource.uri, resource]));
          expect([...resources.keys()].sort()).toEqual([
            'ui://charts/chart.html',
            'ui://counter/view.html',
            'ui://show-time/app.html',
          ]);
          for (const resource of resources.values()) expect(resource.mimeType).toBe(mcpAppMimeType);
          expect(resources.get('ui://show-time/app.html')?._meta).toEqual({ ui: clockUi });
          expect(resources.get('ui://charts/chart.html')?._meta).toEqual({ ui: { prefersBorder: false } });

          expect(await client.read('ui://show-time/app.html')).toEqual([
            {
              uri: 'ui://show-time/app.html',
              mimeType: mcpAppMimeType,
              text: clockHtml,
              _meta: { ui: clockUi },
            },
          ]);
          const [counter] = await client.read('ui://counter/view.html');
          expect(counter?.text).toContain('<p id="count">');
          expect(counter?._meta).toBeUndefined();
          expect(await client.read('ui://charts/chart.html')).toEqual([
            {
              uri: 'ui://charts/chart.html',
              mimeType: mcpAppMimeType,
              text: chartHtml,
              _meta: { ui: { prefersBorder: false } },
            },
          ]);
          // Listed to the host (it keeps it from the model), callable by the app.
          expect(textOf(await client.call('increment'))).toMatch(/^count \d+$/);
        } finally {
          await client.close();
        }
      });
    }
  });
}

describe('apps the server refuses', () => {
  const execute = () => 'ok';

  test('defineTool says what is wrong with an app, naming the tool', () => {
    const cases: Array<[app: Record<string, unknown>, says: RegExp]> = [
      [{ html: '<p>a</p>', file: fileURLToPath(counterHtml) }, /html or file, not both/],
      [{ html: '' }, /non-empty string/],
      [{ resourceUri: 'https://example.com/app.html' }, /not a ui:\/\/ URI/],
      [{ html: '<p>a</p>', visibility: ['robot'] }, /visibility must list/],
      [{ file: 'apps/counter.html' }, /relative; pass an absolute path/],
      [{ file: '/nowhere/app.html' }, /no file at \/nowhere\/app.html/],
      [
        { html: '<p>a</p>', csp: { connectDomains: "https://a.example.com; script-src 'unsafe-eval'" } },
        /csp .* malformed/,
      ],
      [
        { html: '<p>a</p>', csp: { connectDomains: ["https://a.example.com 'unsafe-eval'"] } },
        /one origin per entry/,
      ],
      [{ resourceUri: 'ui://x/y', prefersBorder: true }, /describe a resource this tool serves/],
    ];
    for (const [app, says] of cases) {
      let thrown: unknown;
      try {
        defineTool({ name: 'shown', description: 'd', app: app as never, execute });
      } catch (error) {
        thrown = error;
      }
      expect(SwitchboardError.isInstance(thrown), JSON.stringify(app)).toBe(true);
      expect((thrown as SwitchboardError).code).toBe('INVALID_ARGUMENT');
      expect((thrown as SwitchboardError).context.tool).toBe('shown');
      expect((thrown as Error).message).toMatch(says);
    }
  });

  test('createMcpServer refuses apps that could not render, and addTool does too', () => {
    const named = defineTool({ name: 'named', description: 'd', app: { resourceUri: 'ui://x/y' }, execute });
    const refusal = (make: () => unknown) => {
      try {
        make();
      } catch (error) {
        return error as ServerError;
      }
      throw new Error('expected a refusal');
    };
    let error = refusal(() => createMcpServer({ name: 's', version: '1', tools: [named] }));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toMatch(/names the app resource ui:\/\/x\/y, which this server does not serve/);
    // Served by another provider (a gateway's upstreams): nothing this check can see, so allowed.
    createMcpServer({
      name: 's',
      version: '1',
      tools: [named],
      resourceProviders: [
        {
          specificationVersion: 'v1',
          subscribable: false,
          listResources: () => [],
          listResourceTemplates: () => [],
          readResource: () => undefined,
        },
      ],
    });
    const one = defineTool({
      name: 'one',
      description: 'd',
      app: { html: '<p>1</p>', resourceUri: 'ui://same/app' },
      execute,
    });
    const two = defineTool({
      name: 'two',
      description: 'd',
      app: { html: '<p>2</p>', resourceUri: 'ui://same/app' },
      execute,
    });
    error = refusal(() => createMcpServer({ name: 's', version: '1', tools: [one, two] }));
    expect(error.message).toMatch(
      /"one" and "two" both serve an app at ui:\/\/same\/app with different HTML/,
    );
    const server = createMcpServer({ name: 's', version: '1', tools: [one] });
    error = refusal(() => server.addTool(two));
    expect(error.code).toBe('CONFIG_INVALID');
    error = refusal(() =>
      createMcpServer({
        name: 's',
        version: '1',
        tools: [one],
        resources: [{ uri: 'ui://same/app', name: 'same', read: () => '<p>r</p>' }],
      }),
    );
    expect(error.message).toMatch(/a resource of this server already is/);
  });

  test('a server without apps declares no extension and no resources; one added later brings both', async () => {
    const server = createMcpServer({
      name: 's',
      version: '1',
      tools: [defineTool({ name: 'plain', description: 'd', execute })],
    });
    expect(server.capabilities('legacy')).toEqual({
      tools: { listChanged: true },
      completions: {},
      logging: {},
    });
    expect((server.capabilities('modern') as { extensions?: object }).extensions).not.toHaveProperty(
      mcpAppsExtensionId,
    );
    server.addTool(defineTool({ name: 'shown', description: 'd', app: { html: '<p>a</p>' }, execute }));
    expect(server.capabilities('legacy')).toMatchObject({
      resources: { listChanged: true },
      extensions: { [mcpAppsExtensionId]: {} },
    });
    expect(server.registry.get('shown')?.app).toEqual({ resourceUri: 'ui://shown/app.html' });
    server.removeTool('shown');
    expect(server.capabilities('legacy').resources).toBeUndefined();
  });

  test('an app file is read at each read: a rebuilt app is served without a restart', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'switchboard-app-'));
    try {
      const file = join(directory, 'app.html');
      writeFileSync(file, '<p>one</p>');
      const server = createMcpServer({
        name: 's',
        version: '1',
        tools: [defineTool({ name: 'shown', description: 'd', app: { file: pathToFileURL(file) }, execute })],
      });
      await using connection = await connectInMemory(server, { name: 'reader' });
      const client = connection.client;
      const text = async () =>
        ((await client.readResource({ uri: 'ui://shown/app.html' })).contents[0] as { text: string }).text;
      expect(await text()).toBe('<p>one</p>');
      writeFileSync(file, '<p>two</p>');
      expect(await text()).toBe('<p>two</p>');
      rmSync(file);
      await expect(client.readResource({ uri: 'ui://shown/app.html' })).rejects.toThrow(
        /cannot be read from .*app.html/,
      );
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
