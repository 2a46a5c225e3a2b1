// Every way a server can fail to come up gives a clear error, leaves no process behind, and
// (with onError: 'skip') does not take the other servers down.
import { createServer } from 'node:http';
import { everythingStdio, freePort, listenOnRandomPort } from '@switchboard/test-helpers';
import { afterEach, describe, expect, it } from 'vitest';
import { connectMcp, createMcpClient, type McpConnection } from '../src/index.js';
import {
  createRecordingLogger,
  fixture,
  processesWithEnvironment,
  uniqueMarker,
  waitFor,
} from './helpers/servers.js';

const node = process.execPath;

describe('connection failures', () => {
  const open: McpConnection[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((connection) => connection.close()));
  });

  it('a command that does not exist: names the server and the command', async () => {
    const error = await createMcpClient('ghost', { command: 'switchboard-no-such-command-xyz' }).catch(
      (e) => e,
    );
    expect(error.code).toMatch(/SPAWN_FAILED|CONNECTION_FAILED/);
    expect(error.message).toContain('ghost');
    expect(error.message).toContain('switchboard-no-such-command-xyz');
    expect(error.message).toMatch(/not found|ENOENT/i);
  });

  it('a server that never answers initialize: TIMEOUT naming the server and what to try, no process left', async () => {
    const marker = uniqueMarker();
    const started = Date.now();
    const error = await createMcpClient(
      'mute',
      { command: node, args: [fixture('silent-server.mjs')], env: { SB_MARKER: marker } },
      { initializeTimeoutMs: 1500 },
    ).catch((e) => e);
    expect(error.code).toBe('TIMEOUT');
    expect(error.message).toContain('"mute"');
    expect(error.message).toContain('1500 ms');
    expect(error.message).toMatch(/by hand|connectMs/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
    await waitFor(
      () => processesWithEnvironment(marker).length === 0,
      20_000,
      'the silent server to be stopped',
    );
  });

  it('a server printing garbage on stdout: the error says so', async () => {
    const marker = uniqueMarker();
    const error = await createMcpClient(
      'noisy',
      { command: node, args: [fixture('garbage-server.mjs')], env: { SB_MARKER: marker } },
      { initializeTimeoutMs: 2000 },
    ).catch((e) => e);
    expect(error.code).toBe('TIMEOUT');
    expect(error.message).toContain('"noisy"');
    expect(error.message).toMatch(/not (a )?JSON-RPC/);
    expect(error.message).toContain('Welcome to my server');
    await waitFor(
      () => processesWithEnvironment(marker).length === 0,
      20_000,
      'the noisy server to be stopped',
    );
  });

  it('a server that exits at once: the error quotes its stderr', async () => {
    const error = await createMcpClient('crashy', {
      command: node,
      args: [fixture('crash-server.mjs')],
    }).catch((e) => e);
    expect(error.code).toMatch(/CONNECTION_FAILED|SERVER_EXITED|CONNECTION_CLOSED/);
    expect(error.message).toContain('crashy');
    expect(error.message).toContain('cannot open database');
  });

  it('a URL that refuses connections: CONNECTION_FAILED saying so', async () => {
    const port = await freePort();
    const error = await createMcpClient('remote', { url: `http://127.0.0.1:${port}/mcp` }).catch((e) => e);
    expect(error.code).toBe('CONNECTION_FAILED');
    expect(error.message).toContain('remote');
    expect(error.message).toMatch(/refused|ECONNREFUSED/);
  });

  it("onError: 'skip' warns about each broken server and keeps the healthy one working", async () => {
    const port = await freePort();
    const { lines, logger } = createRecordingLogger();
    const connection = await connectMcp(
      {
        good: everythingStdio(),
        ghost: { command: 'switchboard-no-such-command-xyz' },
        mute: { command: node, args: [fixture('silent-server.mjs')], timeouts: { connectMs: 1500 } },
        noisy: { command: node, args: [fixture('garbage-server.mjs')], timeouts: { connectMs: 1500 } },
        remote: { url: `http://127.0.0.1:${port}/mcp` },
      },
      { onError: 'skip', logger, approval: 'never' },
    );
    open.push(connection);
    const status = connection.status();
    expect(status.good?.state).toBe('connected');
    for (const broken of ['ghost', 'mute', 'noisy', 'remote']) {
      expect(status[broken]?.state).toBe('failed');
      expect(status[broken]?.lastError?.message).toContain(broken);
      expect(lines.some((line) => line.startsWith('warn') && line.includes(`"${broken}"`))).toBe(true);
    }
    expect(status.mute?.lastError?.code).toBe('TIMEOUT');
    expect(Object.keys(connection.tools).every((name) => name.startsWith('mcp__good__'))).toBe(true);
    const echo = await connection.callTool('mcp__good__echo', { message: 'still serving' });
    expect(JSON.stringify(echo)).toContain('still serving');
  });

  it("onError: 'throw' (the default) rejects and stops the servers that did connect", async () => {
    const marker = uniqueMarker();
    const error = await connectMcp({
      good: everythingStdio({ env: { SB_MARKER: marker } }),
      ghost: { command: 'switchboard-no-such-command-xyz' },
    }).catch((e) => e);
    expect(error.message).toContain('ghost');
    await waitFor(
      () => processesWithEnvironment(marker).length === 0,
      20_000,
      'the healthy server to be stopped',
    );
  });

  it('an entry without command or url is a config error naming the server', async () => {
    await expect(connectMcp({ broken: { args: ['x'] } as never })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringContaining('"broken"'),
    });
  });

  it('a server that wants credentials: state needs-auth, and the token is not quoted', async () => {
    const seen: string[] = [];
    const server = createServer((request, response) => {
      seen.push(String(request.headers.authorization));
      response.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' });
      response.end(JSON.stringify({ error: 'unauthorized' }));
    });
    const { port } = await listenOnRandomPort(server);
    try {
      const connection = await connectMcp(
        {
          locked: {
            url: `http://127.0.0.1:${port}/mcp`,
            headers: { Authorization: 'Bearer wrong-token-0123456789' },
          },
        },
        { onError: 'skip' },
      );
      open.push(connection);
      const status = connection.status().locked!;
      expect(status.state).toBe('needs-auth');
      expect(status.lastError?.code).toMatch(/UNAUTHORIZED|NEEDS_AUTH/);
      expect(status.lastError?.message).toContain('locked');
      expect(JSON.stringify(status)).not.toContain('wrong-token-0123456789');
      // The header did reach the server: it is only kept out of messages.
      expect(seen[0]).toBe('Bearer wrong-token-0123456789');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
