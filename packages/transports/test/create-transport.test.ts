import { Client } from '@modelcontextprotocol/client';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SwitchboardError } from '@switchboard/core';
import { type EverythingHttpServer, serverScript, startEverythingHttp } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createInMemoryTransportPair,
  createTransport,
  isStdioTransport,
  resolveTransportType,
  type StdioExitInfo,
} from '../src/index.js';
import { waitForProcessesGone } from './support/process-table.js';

describe('resolveTransportType', () => {
  it('infers stdio from command, http from url, ws from a ws:// url, and lets an explicit type win', () => {
    expect(resolveTransportType({ command: 'node' })).toBe('stdio');
    expect(resolveTransportType({ url: 'http://localhost/mcp' })).toBe('http');
    expect(resolveTransportType({ url: 'wss://example.com/mcp' })).toBe('ws');
    expect(resolveTransportType({ url: 'http://localhost/sse', type: 'sse' })).toBe('sse');
    expect(resolveTransportType({ url: 'http://localhost/mcp', type: 'streamable-http' })).toBe('http');
    expect(resolveTransportType({ command: 'node', url: 'http://x', type: 'http' })).toBe('http');
  });

  it('rejects an entry with neither command nor url, naming the server', () => {
    expect(() => createTransport({}, { name: 'empty' })).toThrow(/"empty" has neither "command".*nor "url"/);
    try {
      createTransport({ env: { TOKEN: 'secret-value' } }, { name: 'empty' });
    } catch (error) {
      expect(SwitchboardError.hasCode(error, 'CONFIG_INVALID')).toBe(true);
      expect(JSON.stringify(error)).not.toContain('secret-value');
    }
  });

  it('rejects an unknown type, a typed entry missing its field, and an invalid url', () => {
    expect(() =>
      createTransport({ type: 'carrier-pigeon' as 'http', url: 'http://x' }, { name: 'odd' }),
    ).toThrow(/unknown transport type "carrier-pigeon"/);
    expect(() => createTransport({ type: 'stdio', url: 'http://x' }, { name: 's' })).toThrow(/no "command"/);
    expect(() => createTransport({ type: 'sse', command: 'node' }, { name: 's' })).toThrow(/no "url"/);
    expect(() => createTransport({ url: 'not a url' }, { name: 'bad' })).toThrow(/invalid "url"/);
  });
});

describe('createTransport with real servers', () => {
  let http: EverythingHttpServer;
  let sse: EverythingHttpServer;
  beforeAll(async () => {
    [http, sse] = await Promise.all([startEverythingHttp('streamableHttp'), startEverythingHttp('sse')]);
  });
  afterAll(async () => {
    await Promise.all([http?.close(), sse?.close()]);
  });

  async function echo(transport: ReturnType<typeof createTransport>): Promise<unknown> {
    const client = new Client({ name: 'create-transport-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      return (await client.callTool({ name: 'echo', arguments: { message: 'x' } })).content;
    } finally {
      await client.close();
    }
  }

  it('command → stdio, with process accessors forwarded', async () => {
    const transport = createTransport(
      { command: process.execPath, args: [serverScript('server-everything'), 'stdio'] },
      { name: 'e' },
    );
    expect(isStdioTransport(transport)).toBe(true);
    if (!isStdioTransport(transport)) return;
    const exits: StdioExitInfo[] = [];
    transport.onexit = (info) => exits.push(info);
    const client = new Client({ name: 'create-transport-test', version: '1.0.0' });
    await client.connect(transport);
    const pid = transport.pid!;
    expect(pid).toBeGreaterThan(0);
    expect(transport.stderrTail()).toContain('STDIO');
    await client.close();
    expect(exits).toHaveLength(1);
    expect(exits[0]?.expected).toBe(true);
    expect(await waitForProcessesGone([pid])).toEqual([]);
  });

  it('url → Streamable HTTP; type sse → legacy SSE with headers; url of an SSE server → fallback', async () => {
    const expected = [{ type: 'text', text: 'Echo: x' }];
    expect(await echo(createTransport({ url: `http://127.0.0.1:${http.port}/mcp` }))).toEqual(expected);
    expect(
      await echo(
        createTransport({
          type: 'sse',
          url: `http://127.0.0.1:${sse.port}/sse`,
          headers: { 'X-Test': '1' },
          bearerToken: 't',
        }),
      ),
    ).toEqual(expected);
    expect(await echo(createTransport({ url: `http://127.0.0.1:${sse.port}/sse` }))).toEqual(expected);
  });

  it('a command that does not exist → SPAWN_FAILED from Client.connect', async () => {
    const client = new Client({ name: 'create-transport-test', version: '1.0.0' });
    const failure = await client
      .connect(createTransport({ command: 'switchboard-missing-binary' }, { name: 'missing' }))
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(SwitchboardError.hasCode(failure, 'SPAWN_FAILED')).toBe(true);
    expect((failure as Error).message).toMatch(/"missing".*"switchboard-missing-binary" was not found/);
  });

  it('type sse against a refused port → CONNECTION_FAILED', async () => {
    const client = new Client({ name: 'create-transport-test', version: '1.0.0' });
    const stopped = await startEverythingHttp('sse');
    await stopped.close();
    await expect(
      client.connect(
        createTransport({ type: 'sse', url: `http://127.0.0.1:${stopped.port}/sse` }, { name: 'gone' }),
      ),
    ).rejects.toSatisfy(
      (error: unknown) =>
        SwitchboardError.hasCode(error, 'CONNECTION_FAILED') && /"gone"/.test(String(error)),
    );
  });
});

describe('createInMemoryTransportPair', () => {
  it('links a client and a server in process', async () => {
    const [clientTransport, serverTransport] = createInMemoryTransportPair();
    const server = new Server({ name: 'memory', version: '1.0.0' }, { capabilities: {} });
    await server.connect(serverTransport);
    const client = new Client({ name: 'memory-test', version: '1.0.0' });
    await client.connect(clientTransport);
    expect(client.getServerVersion()).toEqual({ name: 'memory', version: '1.0.0' });
    await client.ping();
    await client.close();
  });
});
