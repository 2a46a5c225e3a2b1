// One client, both eras: it negotiates with real servers of each kind (an SDK v2 modern-only
// server, an SDK v2 dual server, server-everything and SDK v1 servers of the 2025 era) over HTTP
// and stdio, honours a protocolVersion pin, and fails clearly where the eras cannot meet.
import http from 'node:http';
import {
  type EverythingHttpServer,
  everythingStdio,
  fixtureServerScript,
  listenOnRandomPort,
  startEverythingHttp,
} from '@switchboard/test-helpers';
import { afterEach, describe, expect, it } from 'vitest';
import { connectMcp, createMcpClient, type McpClient } from '../src/index.js';
import { type RunningMcpServer, startSdkV2Server } from './helpers/http-mcp-server.js';
import { fixture } from './helpers/servers.js';

const node = process.execPath;
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

async function server(options: Parameters<typeof startSdkV2Server>[0] = {}): Promise<RunningMcpServer> {
  const running = await startSdkV2Server(options);
  cleanups.push(() => running.close());
  return running;
}

async function client(...args: Parameters<typeof createMcpClient>): Promise<McpClient> {
  const connected = await createMcpClient(...args);
  cleanups.push(() => connected.close());
  return connected;
}

async function everythingHttp(mode: 'streamableHttp' | 'sse'): Promise<EverythingHttpServer> {
  const running = await startEverythingHttp(mode);
  cleanups.push(() => running.close());
  return running;
}

const methodsOf = (running: RunningMcpServer) => running.requests.map((request) => request.body?.method);

describe('the modern era (2026-07-28) over HTTP', () => {
  it('connects to a modern-only SDK v2 server: server/discover, no initialize, no session, no GET stream', async () => {
    const modern = await server({ legacy: 'reject' });
    const connection = await connectMcp({ x: { url: modern.url } });
    cleanups.push(() => connection.close());
    expect(connection.status().x).toMatchObject({
      state: 'connected',
      era: 'modern',
      protocolVersion: '2026-07-28',
      transport: 'http',
      serverInfo: { name: 'sdk-v2-test-server', version: '2.0.0' },
    });
    expect(connection.client('x')?.era).toBe('modern');
    const echo = connection.tools.mcp__x__echo;
    expect(await echo?.execute?.({ message: 'modern' })).toMatchObject({ status: 'success' });
    expect(methodsOf(modern)).toContain('server/discover');
    expect(methodsOf(modern)).not.toContain('initialize');
    expect(modern.requests.some((request) => request.method === 'GET')).toBe(false);
    expect(modern.requests.some((request) => request.headers['mcp-session-id'] !== undefined)).toBe(false);
  });

  it('sends MCP-Protocol-Version, Mcp-Method, Mcp-Name (encoded) and Mcp-Param-* headers matching the body', async () => {
    const modern = await server({ legacy: 'reject' });
    const connected = await client('x', { url: modern.url });
    await connected.listTools();
    await connected.callTool('regional', { region: 'Zürich ', note: 'n' });
    await connected.callTool('echo', { message: 'plain' });
    for (const request of modern.requests.filter((entry) => entry.method === 'POST')) {
      const meta = request.body?.params?._meta as Record<string, unknown> | undefined;
      expect(request.headers['mcp-protocol-version']).toBe('2026-07-28');
      expect(meta?.['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
      expect(meta?.['io.modelcontextprotocol/clientInfo']).toMatchObject({ name: 'switchboard' });
      expect(request.headers['mcp-method']).toBe(request.body?.method);
    }
    const regional = modern.requests.find((entry) => entry.body?.params?.name === 'regional');
    expect(regional?.headers['mcp-name']).toBe('regional');
    // Non-ASCII and a trailing space: the spec's Base64 sentinel, decoding to the body's value.
    const header = String(regional?.headers['mcp-param-region']);
    expect(header).toMatch(/^=\?base64\?.+\?=$/);
    expect(Buffer.from(header.slice('=?base64?'.length, -2), 'base64').toString('utf8')).toBe('Zürich ');
    const echo = modern.requests.find((entry) => entry.body?.params?.name === 'echo');
    expect(echo?.headers['mcp-param-region']).toBeUndefined();
  });

  it('a modern pin against a dual server speaks modern; a 2025 pin speaks legacy offering that version', async () => {
    const dual = await server();
    const modern = await client('m', { url: dual.url, protocolVersion: '2026-07-28' });
    expect([modern.era, modern.protocolVersion]).toEqual(['modern', '2026-07-28']);
    const legacy = await client('l', { url: dual.url, protocolVersion: '2025-06-18' });
    expect([legacy.era, legacy.protocolVersion]).toEqual(['legacy', '2025-06-18']);
    const initialize = dual.requests.find((request) => request.body?.method === 'initialize');
    expect(initialize?.body?.params?.protocolVersion).toBe('2025-06-18');
    expect(await legacy.callTool('echo', { message: 'old' })).toMatchObject({
      content: [{ type: 'text', text: 'Echo: old' }],
    });
    // A 2025-era pin sends no probe: the request before initialize is none.
    expect(dual.requests.filter((request) => request.body?.method === 'server/discover')).toHaveLength(1);
  });

  it('without a pin the dual server is modern (probe first)', async () => {
    const dual = await server();
    const connected = await client('d', { url: dual.url });
    expect(connected.era).toBe('modern');
    expect(methodsOf(dual)[0]).toBe('server/discover');
  });
});

describe('the 2025 era and its fallbacks', () => {
  it('falls back to initialize with server-everything over HTTP (status shows legacy and the version)', async () => {
    const everything = await everythingHttp('streamableHttp');
    const connection = await connectMcp({ everything: { url: everything.url } });
    cleanups.push(() => connection.close());
    expect(connection.status().everything).toMatchObject({
      state: 'connected',
      era: 'legacy',
      protocolVersion: '2025-11-25',
    });
    expect(await connection.tools.mcp__everything__echo?.execute?.({ message: 'x' })).toMatchObject({
      status: 'success',
    });
  });

  it('falls back to legacy SSE only for a legacy-only SSE server', async () => {
    const everything = await everythingHttp('sse');
    const connected = await client('sse', { url: everything.url });
    expect([connected.era, connected.transportKind]).toEqual(['legacy', 'sse']);
  });

  it('over stdio: server-everything is legacy, an SDK v2 stdio server is modern', async () => {
    const legacy = await client('e', everythingStdio());
    expect([legacy.era, legacy.protocolVersion]).toEqual(['legacy', '2025-11-25']);
    const modern = await client('v2', { command: node, args: [fixture('sdk-v2-server.mjs')] });
    expect([modern.era, modern.protocolVersion]).toEqual(['modern', '2026-07-28']);
    expect(await modern.callTool('add', { a: 2, b: 3 })).toMatchObject({ structuredContent: { sum: 5 } });
  });

  it('a stdio server that exits on any request before initialize is started again and reached as legacy', async () => {
    const connected = await client('strict', {
      command: node,
      args: [fixtureServerScript('exit-before-initialize-server')],
    });
    expect(connected.era).toBe('legacy');
    expect(await connected.callTool('echo', { message: 'second life' })).toMatchObject({
      content: [{ type: 'text', text: 'second life' }],
    });
  });

  it('an SDK v1 stdio server (2025 era) negotiates legacy', async () => {
    const connected = await client('v1', { command: node, args: [fixture('counter-server.mjs')] });
    expect(connected.era).toBe('legacy');
    expect((await connected.listTools()).map((tool) => tool.name)).toContain('lookup');
  });
});

describe('eras that cannot meet, with clear errors', () => {
  it('an unknown pinned version fails before anything starts', async () => {
    const error = await createMcpClient('typo', {
      command: 'no-such-command',
      protocolVersion: '2026-13-01',
    }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'UNSUPPORTED_PROTOCOL_VERSION' });
    expect((error as Error).message).toMatch(/"typo".*2026-13-01.*2026-07-28/s);
  });

  it('a modern pin against a legacy server says the server did not offer it', async () => {
    await using everything = await startEverythingHttp('streamableHttp');
    const error = await createMcpClient('old', { url: everything.url, protocolVersion: '2026-07-28' }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: 'UNSUPPORTED_PROTOCOL_VERSION' });
    expect((error as Error).message).toMatch(/"old".*2026-07-28/s);
    expect((error as Error).message).toMatch(/protocolVersion/);
  });

  it('a 2025 pin against a modern-only server names what it supports, without an SSE fallback', async () => {
    const modern = await server({ legacy: 'reject' });
    const error = await createMcpClient('new', { url: modern.url, protocolVersion: '2025-11-25' }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: 'UNSUPPORTED_PROTOCOL_VERSION' });
    expect((error as Error).message).toContain('2026-07-28');
    expect(modern.requests.some((request) => request.method === 'GET')).toBe(false);
  });

  it('a probe nobody answers over HTTP is a TIMEOUT, not a fallback', async () => {
    const silent = http.createServer(() => {
      // Accepts the request and never answers.
    });
    const listening = await listenOnRandomPort(silent);
    cleanups.push(listening.close);
    const url = `${listening.origin}/mcp`;
    const error = await createMcpClient('mute', { url }, { initializeTimeoutMs: 800 }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: 'TIMEOUT' });
    expect((error as Error).message).toMatch(/"mute".*800 ms/s);
  });
});
