/**
 * A gateway relays `CallToolResult`s as the upstream sent them. Every content type of
 * server-everything (text, image, audio-free annotated blocks, embedded resources, resource links),
 * structured output and `isError` arrive unchanged through the gateway — compared with a direct
 * call — for an official client of each era, whether the gateway opened the `connectMcp` set itself
 * or was handed one made with default options (as `switchboard serve` does).
 */
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { connectMcp } from '@switchboard/client';
import { type ServeHandle, serve } from '@switchboard/server';
import { serverScript } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createGateway, type Gateway } from '../src/index.js';

const everything = serverScript('server-everything');
const upstream = { command: process.execPath, args: [everything, 'stdio'] };

/** Calls whose results cover every content type server-everything produces. */
const calls: Array<{ tool: string; args: Record<string, unknown> }> = [
  { tool: 'echo', args: { message: 'unchanged' } },
  { tool: 'get-sum', args: { a: 2, b: 40 } },
  { tool: 'get-tiny-image', args: {} },
  { tool: 'get-annotated-message', args: { messageType: 'success', includeImage: true } },
  { tool: 'get-resource-links', args: { count: 3 } },
  { tool: 'get-resource-reference', args: { resourceType: 'Text', resourceId: 2 } },
  { tool: 'get-resource-reference', args: { resourceType: 'Blob', resourceId: 3 } },
  { tool: 'get-structured-content', args: { location: 'Chicago' } },
];

type Relayed = {
  content?: unknown;
  structuredContent?: unknown;
  isError?: unknown;
  _meta?: Record<string, unknown>;
};

/**
 * What a relay must keep: everything but the gateway's own identity in `_meta` (2026-07-28).
 * server-everything stamps the time it made a resource into its text; that is the upstream's own
 * variation between two calls, not the relay's.
 */
function comparable(result: Relayed) {
  const { 'io.modelcontextprotocol/serverInfo': _server, ...meta } = result._meta ?? {};
  const untimed = (text: string) => text.replace(/\d{1,2}:\d{2}:\d{2}\s?[AP]M/g, '<time>');
  const content = JSON.parse(JSON.stringify(result.content), (key, value) =>
    typeof value !== 'string'
      ? value
      : key === 'blob'
        ? untimed(Buffer.from(value, 'base64').toString('utf8'))
        : untimed(value),
  );
  return {
    content,
    structuredContent: result.structuredContent,
    isError: result.isError ?? false,
    _meta: Object.keys(meta).length > 0 ? meta : undefined,
  };
}

const direct = new Map<number, ReturnType<typeof comparable>>();
beforeAll(async () => {
  const client = new V1Client({ name: 'direct', version: '1.0.0' });
  await client.connect(new V1Stdio({ ...upstream, stderr: 'ignore' }));
  for (const [index, call] of calls.entries()) {
    direct.set(
      index,
      comparable((await client.callTool({ name: call.tool, arguments: call.args })) as Relayed),
    );
  }
  await client.close();
  // The calls really cover the interesting types.
  const types = new Set(
    [...direct.values()].flatMap((result) =>
      (result.content as Array<{ type: string }>).map((block) => block.type),
    ),
  );
  expect([...types].sort()).toEqual(['image', 'resource', 'resource_link', 'text']);
}, 60_000);

for (const setKind of ['opened by the gateway', 'a default connectMcp set handed in'] as const) {
  describe(`gateway over server-everything, ${setKind}`, () => {
    let gateway: Gateway;
    let handle: ServeHandle;
    let handedIn: Awaited<ReturnType<typeof connectMcp>> | undefined;
    beforeAll(async () => {
      if (setKind === 'opened by the gateway') {
        gateway = await createGateway({ config: { mcpServers: { everything: upstream } } });
      } else {
        handedIn = await connectMcp({ everything: upstream });
        gateway = await createGateway({ clients: handedIn });
      }
      handle = await serve(gateway, { transport: { type: 'http', port: 0 } });
    }, 60_000);
    afterAll(async () => {
      await handle.close();
      await gateway.close();
      await handedIn?.close();
    });

    test('a 2025 client (SDK v1) gets every result exactly as a direct call does', async () => {
      const client = new V1Client({ name: 'through-gateway', version: '1.0.0' });
      await client.connect(new V1Http(new URL(handle.url as string)));
      for (const [index, call] of calls.entries()) {
        const relayed = await client.callTool({
          name: `mcp__everything__${call.tool}`,
          arguments: call.args,
        });
        expect(comparable(relayed as Relayed), call.tool).toEqual(direct.get(index));
      }
      await client.close();
    }, 60_000);

    test('a 2026-07-28 client (SDK v2 pinned) gets every result exactly as a direct call does', async () => {
      const client = new V2Client(
        { name: 'through-gateway', version: '1.0.0' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      await client.connect(new V2Http(new URL(handle.url as string)));
      expect(client.getProtocolEra()).toBe('modern');
      for (const [index, call] of calls.entries()) {
        const relayed = await client.callTool({
          name: `mcp__everything__${call.tool}`,
          arguments: call.args,
        });
        expect(comparable(relayed as Relayed), call.tool).toEqual(direct.get(index));
      }
      await client.close();
    }, 60_000);
  });
}
