// Supervision with real processes: kill -9 mid-call, respawn with backoff, the retry rule for
// destructive vs read-only tools, the circuit breaker, lazy reconnects and HTTP session loss.
import { existsSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SwitchboardError, ToolRegistryEvent } from '@switchboard/core';
import {
  createEventLog,
  createTemporaryDirectories,
  type EventLog,
  type EverythingHttpServer,
  freePort,
  startEverythingHttp,
  waitForClockPast,
} from '@switchboard/test-helpers';
import { afterEach, describe, expect, it } from 'vitest';
import { connectMcp, type McpConnection } from '../src/index.js';
import {
  fixture,
  followFileLines,
  processesWithEnvironment,
  uniqueMarker,
  waitFor,
} from './helpers/servers.js';

const lines = (file: string, prefix: string): string[] =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line.startsWith(prefix))
    : [];

/** Waits until the counter server has recorded a call whose line starts with `prefix`. */
async function callReached(calls: EventLog<string>, prefix: string): Promise<void> {
  await calls.find((line) => line.startsWith(prefix), { what: `the call ${prefix} to reach the server` });
}

describe('supervision', () => {
  const open: McpConnection[] = [];
  const servers: EverythingHttpServer[] = [];
  const temporary = createTemporaryDirectories();
  afterEach(async () => {
    await Promise.all(open.splice(0).map((connection) => connection.close()));
    await Promise.all(servers.splice(0).map((server) => server.close()));
    temporary.removeAll();
  });

  const counterSetup = (extraEnv: Record<string, string> = {}) => {
    const dir = temporary.make('sb-client-supervision-');
    const log = join(dir, 'calls.log');
    const marker = uniqueMarker();
    const entry = {
      command: process.execPath,
      args: [fixture('counter-server.mjs')],
      env: { COUNTER_FILE: log, SB_MARKER: marker, ...extraEnv } as Record<string, string>,
    };
    return { dir, log, marker, entry };
  };

  it('kill -9 mid-call: a destructive call rejects clearly and is never run twice; the next call works after respawn', async () => {
    const { log, marker, entry } = counterSetup();
    const connection = await connectMcp(
      { counter: entry },
      { approval: 'never', supervision: { baseDelayMs: 50, maxAttempts: 5 } },
    );
    open.push(connection);
    const firstPid = connection.client('counter')?.pid;
    expect(firstPid).toBeGreaterThan(0);

    using calls = followFileLines(log);
    const inFlight = connection.callTool('mcp__counter__record', { value: 'once', delayMs: 20_000 });
    await callReached(calls.lines, 'record:once');
    process.kill(firstPid!, 'SIGKILL');

    const error = (await inFlight.catch((e: unknown) => e)) as SwitchboardError;
    expect(error.message).toContain('counter');
    expect(error.message).toMatch(/closed|exited|killed/i);
    expect(error.message).toContain('not retried');
    expect(error.context.retried).toBe(false);

    const after = await connection.callTool('mcp__counter__lookup', { value: 'after' });
    expect(JSON.stringify(after)).toContain('found after');
    const status = connection.status().counter!;
    expect(status.state).toBe('connected');
    expect(status.respawns).toBe(1);
    expect(connection.client('counter')?.pid).not.toBe(firstPid);
    // The destructive call ran exactly once, on the first process only.
    expect(lines(log, 'record:once')).toHaveLength(1);
    expect(processesWithEnvironment(marker)).toHaveLength(1);
  });

  it('kill -9 mid-call: a read-only call is retried once after the respawn and succeeds', async () => {
    const { log, entry } = counterSetup();
    const connection = await connectMcp(
      { counter: entry },
      { approval: 'never', supervision: { baseDelayMs: 50 } },
    );
    open.push(connection);
    const firstPid = connection.client('counter')!.pid!;
    using calls = followFileLines(log);
    const inFlight = connection.callTool('mcp__counter__lookup', { value: 'again', delayMs: 1500 });
    await callReached(calls.lines, 'lookup:again');
    process.kill(firstPid, 'SIGKILL');
    const result = await inFlight;
    const secondPid = connection.client('counter')!.pid!;
    expect(secondPid).not.toBe(firstPid);
    expect(JSON.stringify(result)).toContain(`in ${secondPid}`);
    const runs = lines(log, 'lookup:again');
    expect(runs).toHaveLength(2);
    expect(runs[0]).toContain(String(firstPid));
    expect(runs[1]).toContain(String(secondPid));
  });

  it('gives up after maxAttempts, unregisters the tools, and comes back on the next use', async () => {
    const { dir, entry } = counterSetup();
    const flag = join(dir, 'fail.flag');
    entry.env = { ...entry.env, FAIL_IF_EXISTS: flag };
    const connection = await connectMcp(
      { flaky: entry },
      { approval: 'never', supervision: { baseDelayMs: 30, maxAttempts: 2, failureThreshold: 10 } },
    );
    open.push(connection);
    expect(connection.tools.mcp__flaky__lookup).toBeDefined();
    const changes = createEventLog<ToolRegistryEvent>('registry changes');
    connection.registry.subscribe(changes.push);
    writeFileSync(flag, 'x');
    process.kill(connection.client('flaky')!.pid!, 'SIGKILL');
    await changes.find((change) => change.type === 'removed' && change.tool.name === 'mcp__flaky__lookup', {
      what: 'the tools to be unregistered',
    });
    expect(connection.tools.mcp__flaky__lookup).toBeUndefined();
    const status = connection.status().flaky!;
    expect(status.state).toBe('failed');
    expect(status.lastError?.message).toContain('flaky');
    expect(connection.registry.list({ server: 'flaky' })).toHaveLength(0);

    unlinkSync(flag);
    await connection.connect('flaky');
    expect(connection.tools.mcp__flaky__lookup).toBeDefined();
    expect(connection.status().flaky?.state).toBe('connected');
  });

  it('opens the circuit after consecutive failures and lets a trial through after the cool-down', async () => {
    const connection = await connectMcp(
      { crashy: { command: process.execPath, args: [fixture('crash-server.mjs')] } },
      { onError: 'skip', supervision: { failureThreshold: 2, cooldownMs: 400 } },
    );
    open.push(connection);
    expect(connection.status().crashy).toMatchObject({
      state: 'failed',
      circuit: 'closed',
      consecutiveFailures: 1,
    });
    await expect(connection.connect('crashy')).rejects.toMatchObject({
      message: expect.stringContaining('crashy'),
    });
    expect(connection.status().crashy?.circuit).toBe('open');
    expect(connection.status().crashy?.circuitRetryAt).toBeDefined();
    await expect(connection.connect('crashy')).rejects.toMatchObject({ code: 'CIRCUIT_OPEN' });
    // The cool-down ends at the time the status names.
    await waitForClockPast(connection.status().crashy?.circuitRetryAt as string);
    expect(connection.status().crashy?.circuit).toBe('half-open');
    // The trial runs (and fails again, re-opening the circuit).
    await expect(connection.connect('crashy')).rejects.not.toMatchObject({ code: 'CIRCUIT_OPEN' });
    expect(connection.status().crashy?.circuit).toBe('open');
  });

  it('lazy: a dead server is not respawned in the background but on the next use', async () => {
    const { marker, entry } = counterSetup();
    const connection = await connectMcp({ counter: entry }, { approval: 'never', lazy: true });
    open.push(connection);
    process.kill(connection.client('counter')!.pid!, 'SIGKILL');
    await waitFor(() => connection.status().counter?.state === 'failed', 20_000, 'the death to be noticed');
    // A background respawn would be scheduled in the same turn as the death is noticed, and the
    // state would read `connecting`, never `failed`; nor is any process of it running.
    expect(processesWithEnvironment(marker)).toHaveLength(0);
    expect(connection.tools.mcp__counter__whoami).toBeDefined();
    const result = await connection.callTool('mcp__counter__whoami', {});
    expect(JSON.stringify(result)).toContain(String(connection.client('counter')!.pid));
    expect(connection.status().counter?.respawns).toBe(1);
  });

  it('re-initializes when an HTTP server forgot the session and retries the call', async () => {
    const port = await freePort();
    let server = await startEverythingHttp('streamableHttp', port);
    servers.push(server);
    const connection = await connectMcp({ remote: { url: server.url } }, { approval: 'never' });
    open.push(connection);
    expect(JSON.stringify(await connection.callTool('mcp__remote__echo', { message: 'one' }))).toContain(
      'one',
    );
    await server.close();
    server = await startEverythingHttp('streamableHttp', port);
    servers.push(server);
    const result = await connection.callTool('mcp__remote__echo', { message: 'two' });
    expect(JSON.stringify(result)).toContain('two');
    expect(connection.status().remote?.state).toBe('connected');
  });
});
