import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { SwitchboardError } from '@switchboard/core';
import { serverScript } from '@switchboard/test-helpers';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createStdioTransport, type StdioExitInfo, type StdioTransport } from '../src/stdio.js';
import { isProcessAlive, waitForProcessesGone } from './support/process-table.js';
import { stderrLines } from './support/stderr-lines.js';

let fixtures: string;
const cleanups: Array<() => Promise<unknown>> = [];

beforeAll(() => {
  fixtures = mkdtempSync(path.join(tmpdir(), 'switchboard-stdio-'));
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup().catch(() => {});
});
afterAll(() => {
  rmSync(fixtures, { recursive: true, force: true });
});

function fixture(name: string, source: string): string {
  const file = path.join(fixtures, name);
  writeFileSync(file, source);
  return file;
}

function everything(extra: Partial<Parameters<typeof createStdioTransport>[0]> = {}): StdioTransport {
  const transport = createStdioTransport({
    command: process.execPath,
    args: [serverScript('server-everything'), 'stdio'],
    ...extra,
  });
  cleanups.push(() => transport.close());
  return transport;
}

async function connect(transport: StdioTransport): Promise<Client> {
  const client = new Client({ name: 'stdio-test', version: '1.0.0' });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return client;
}

describe('stdio transport against server-everything', () => {
  it('initializes, lists tools, calls echo and receives progress notifications', async () => {
    const transport = everything({ name: 'everything' });
    const client = await connect(transport);
    expect(client.getServerVersion()?.name).toBeTruthy();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('echo');
    const result = await client.callTool({ name: 'echo', arguments: { message: 'hello stdio' } });
    expect(result.content).toEqual([{ type: 'text', text: 'Echo: hello stdio' }]);
    const progress: number[] = [];
    await client.callTool(
      { name: 'trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } },
      { onprogress: (event) => progress.push(event.progress) },
    );
    expect(progress.length).toBeGreaterThan(0);
    expect(transport.pid).toBeGreaterThan(0);
  });

  it('adds env onto the default environment instead of replacing it', async () => {
    const client = await connect(everything({ env: { SWITCHBOARD_TEST_VALUE: 'added-value' } }));
    const result = await client.callTool({ name: 'get-env', arguments: {} });
    const text = (result.content as Array<{ text: string }>)[0]!.text;
    expect(text).toContain('added-value');
    expect(text).toContain('"PATH"');
  });

  it('keeps the stderr tail and logs stderr lines at debug level', async () => {
    const lines: string[] = [];
    const logger = {
      debug: (_context: unknown, message?: string) => {
        if (typeof message === 'string') lines.push(message);
      },
      info: () => {},
      warn: () => {},
      error: () => {},
    };
    const transport = everything({ logger });
    await connect(transport);
    expect(transport.stderrTail()).toContain('Starting default (STDIO) server');
    expect(lines.some((line) => line.includes('Starting default (STDIO) server'))).toBe(true);
  });

  it('leaves no process behind after close()', async () => {
    const transport = everything();
    await connect(transport);
    const pid = transport.pid!;
    expect(isProcessAlive(pid)).toBe(true);
    await transport.close();
    expect(await waitForProcessesGone([pid])).toEqual([]);
  });

  it('runs the server in cwd', async () => {
    const script = fixture(
      'cwd-server.mjs',
      `process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: process.cwd() } }) + '\\n'); setInterval(() => {}, 1000);`,
    );
    const transport = createStdioTransport({ command: process.execPath, args: [script], cwd: fixtures });
    cleanups.push(() => transport.close());
    const received = new Promise<unknown>((resolve) => {
      transport.onmessage = (message) => resolve(message);
    });
    await transport.start();
    expect(await received).toMatchObject({ params: { data: fixtures } });
  });
});

describe('stdio transport failures', () => {
  it('rejects start() with SPAWN_FAILED naming a command that does not exist', async () => {
    const transport = createStdioTransport({ command: 'switchboard-no-such-command-xyz', name: 'ghost' });
    const error = await transport.start().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(SwitchboardError.hasCode(error, 'SPAWN_FAILED')).toBe(true);
    expect((error as Error).message).toContain('switchboard-no-such-command-xyz');
    expect((error as Error).message).toContain('ghost');
    expect((error as Error).message).toMatch(/PATH/);
  });

  it('names a missing working directory', async () => {
    const transport = createStdioTransport({
      command: process.execPath,
      cwd: path.join(fixtures, 'missing-dir'),
    });
    await expect(transport.start()).rejects.toThrow(/working directory/);
  });

  it('reports garbage on stdout through onerror with the line, and keeps working', async () => {
    const script = fixture(
      'garbage-server.mjs',
      `process.stdout.write('this is not json at all\\n'); process.argv[2] = 'stdio'; await import(${JSON.stringify(serverScript('server-everything'))});`,
    );
    const transport = createStdioTransport({ command: process.execPath, args: [script] });
    cleanups.push(() => transport.close());
    const errors: Error[] = [];
    const client = new Client({ name: 'garbage-test', version: '1.0.0' });
    client.onerror = (error) => errors.push(error);
    await client.connect(transport);
    cleanups.push(() => client.close());
    const result = await client.callTool({ name: 'echo', arguments: { message: 'still fine' } });
    expect(result.content).toEqual([{ type: 'text', text: 'Echo: still fine' }]);
    const garbage = errors.find((error) => SwitchboardError.hasCode(error, 'TRANSPORT_ERROR'));
    expect(garbage?.message).toContain('this is not json at all');
  });

  it('reports a server that exits before talking with its exit code and stderr tail', async () => {
    const transport = createStdioTransport({
      command: process.execPath,
      args: ['-e', "console.error('fatal: missing API key'); process.exit(3)"],
      name: 'early-exit',
    });
    cleanups.push(() => transport.close());
    const client = new Client({ name: 'exit-test', version: '1.0.0' });
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    const exited = new Promise<StdioExitInfo>((resolve) => {
      transport.onexit = resolve;
    });
    await expect(client.connect(transport)).rejects.toThrow();
    const info = await exited;
    expect(info).toMatchObject({ code: 3, expected: false });
    expect(info.error?.code).toBe('SERVER_EXITED');
    expect(info.error?.message).toContain('code 3');
    expect(info.error?.message).toContain('fatal: missing API key');
    expect(errors.some((error) => error.message.includes('fatal: missing API key'))).toBe(true);
    expect(transport.exitCode).toBe(3);
  });

  it('reports a server killed mid-session; the in-flight call rejects', async () => {
    const transport = everything({ name: 'victim' });
    const client = await connect(transport);
    const exited = new Promise<StdioExitInfo>((resolve) => {
      transport.onexit = resolve;
    });
    const call = client.callTool({
      name: 'trigger-long-running-operation',
      arguments: { duration: 20, steps: 2 },
    });
    process.kill(transport.pid!, 'SIGKILL');
    await expect(call).rejects.toThrow();
    const info = await exited;
    expect(info).toMatchObject({ signal: 'SIGKILL', expected: false });
    expect(info.error?.message).toContain('SIGKILL');
    await expect(transport.send({ jsonrpc: '2.0', method: 'ping', id: 99 })).rejects.toThrow(/victim/);
  });

  it('kills what a server left in its process group when it exits on its own', async () => {
    const script = fixture(
      'leaving-server.mjs',
      `import { spawn } from 'node:child_process';
       const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
       process.stderr.write('leftover ' + child.pid + '\\n', () => process.exit(0));`,
    );
    const stderr = stderrLines('the leaving server');
    const transport = createStdioTransport({
      command: process.execPath,
      args: [script],
      killTimeoutMs: 500,
      logger: stderr.logger,
    });
    cleanups.push(() => transport.close());
    const exited = new Promise<StdioExitInfo>((resolve) => {
      transport.onexit = resolve;
    });
    await transport.start();
    expect(await exited).toMatchObject({ code: 0, expected: false });
    const line = await stderr.lines.find((text) => text.startsWith('leftover '));
    const leftover = Number(/leftover (\d+)/.exec(line)?.[1]);
    expect(leftover).toBeGreaterThan(0);
    expect(await waitForProcessesGone([leftover])).toEqual([]);
  });

  it('escalates to SIGKILL for a server that ignores stdin end and SIGTERM, and its children go too', async () => {
    const script = fixture(
      'stubborn-server.mjs',
      `import { spawn } from 'node:child_process';
       process.on('SIGTERM', () => {});
       const child = spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"], { stdio: 'ignore' });
       process.stderr.write('grandchild ' + child.pid + '\\n');
       setInterval(() => {}, 1000);`,
    );
    const stderr = stderrLines('the stubborn server');
    const transport = createStdioTransport({
      command: process.execPath,
      args: [script],
      stdinCloseTimeoutMs: 200,
      killTimeoutMs: 500,
      logger: stderr.logger,
    });
    cleanups.push(() => transport.close());
    await transport.start();
    const line = await stderr.lines.find((text) => /^grandchild \d+/.test(text));
    const grandchild = Number(/grandchild (\d+)/.exec(line)?.[1]);
    expect(grandchild).toBeGreaterThan(0);
    const pid = transport.pid!;
    const exits: StdioExitInfo[] = [];
    transport.onexit = (info) => exits.push(info);
    await transport.close();
    expect(exits).toEqual([{ code: null, signal: 'SIGKILL', expected: true }]);
    expect(await waitForProcessesGone([pid, grandchild])).toEqual([]);
  });
});

describe('stdio transport under version negotiation (both eras)', () => {
  const autoClient = () =>
    new Client(
      { name: 'stdio-auto', version: '1.0.0' },
      { versionNegotiation: { mode: 'auto', probe: { timeoutMs: 5000 } } },
    );

  it('is recognised as stdio (stderr and pid) and reaches server-everything as legacy', async () => {
    const transport = everything();
    expect('stderr' in transport && 'pid' in transport).toBe(true);
    const client = autoClient();
    await client.connect(transport);
    cleanups.push(() => client.close());
    expect(client.getProtocolEra()).toBe('legacy');
  });

  it('knows no protocol: a server that exits on the version probe is reported as exited, not restarted or answered', async () => {
    const starts = path.join(fixtures, 'starts.log');
    const script = fixture(
      'exits-on-request.mjs',
      `import { appendFileSync } from 'node:fs';
appendFileSync(${JSON.stringify(starts)}, 'start\\n');
process.stdin.once('data', () => { process.stderr.write('unexpected request before initialize\\n'); process.exit(3); });`,
    );
    const transport = createStdioTransport({ command: process.execPath, args: [script] });
    cleanups.push(() => transport.close());
    const exits: StdioExitInfo[] = [];
    const messages: unknown[] = [];
    const errors: Error[] = [];
    transport.onexit = (info) => exits.push(info);
    transport.onmessage = (message) => messages.push(message);
    transport.onerror = (error) => errors.push(error);
    const closed = new Promise<void>((resolve) => {
      transport.onclose = () => resolve();
    });
    await transport.start();
    await transport.send({ jsonrpc: '2.0', id: 'probe', method: 'server/discover', params: {} });
    await closed;
    expect(exits).toMatchObject([{ code: 3, expected: false }]);
    expect(transport.exitCode).toBe(3);
    // No made-up answer, and the server was started once.
    expect(messages).toEqual([]);
    expect(errors.some((error) => SwitchboardError.hasCode(error, 'SERVER_EXITED'))).toBe(true);
    expect(readFileSync(starts, 'utf8')).toBe('start\n');
  });
});
