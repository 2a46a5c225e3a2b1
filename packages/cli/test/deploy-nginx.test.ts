/**
 * `switchboard deploy nginx`: the command's usage errors, and the file it prints run by the real
 * nginx in front of three real `switchboard serve --http` replicas, called by the official SDK
 * clients of both eras. The rendering itself (`renderNginxConfig`, in @switchboard/server) is read
 * as text in the server's `test/render-nginx-config.test.ts`.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  type EventLog,
  everythingStdio,
  freePort,
  readLines,
  waitForExit,
  waitForPort,
} from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSandbox } from './run-cli-helper.js';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const nginxBin = [process.env.SWITCHBOARD_NGINX, '/usr/sbin/nginx'].find(
  (candidate): candidate is string => candidate !== undefined && existsSync(candidate),
);
const sandbox = createSandbox();

afterAll(() => sandbox.cleanup());

describe('switchboard deploy nginx (usage)', () => {
  it('prints the config for the flags given', async () => {
    const run = await sandbox.run([
      'deploy',
      'nginx',
      '--listen',
      '0.0.0.0:8443',
      '--upstream',
      '10.0.0.5:3000',
      '--upstream',
      'replica-2.internal:3000',
      '--path',
      '/gateway/mcp',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('listen 0.0.0.0:8443;');
    expect(run.stdout).toContain('server 10.0.0.5:3000 max_fails=3');
    expect(run.stdout).toContain('server replica-2.internal:3000 max_fails=3');
    expect(run.stdout).toContain('location = /gateway/mcp {');
    expect(run.stdout).toContain('pid nginx.pid;');
  });

  it.each([
    [['deploy'], /deploy needs a target: nginx/],
    [['deploy', 'apache'], /unknown deploy target 'apache'/],
    [['deploy', 'nginx', '--upstream', '127.0.0.1:3001'], /--listen is required/],
    [['deploy', 'nginx', '--listen', '8080'], /--upstream is required/],
    [
      ['deploy', 'nginx', '--listen', '80800', '--upstream', '127.0.0.1:3001'],
      /--listen '80800'.*1 to 65535/,
    ],
    [['deploy', 'nginx', '--listen', '8080', '--upstream', '3001'], /--upstream takes HOST:PORT.*'3001'/],
    [['deploy', 'nginx', '--listen', '8080', '--upstream', 'a b:3001'], /--upstream 'a b:3001'.*not a host/],
    [['deploy', 'nginx', '--listen', '8080', '--upstream', 'h:0'], /--upstream 'h:0'.*1 to 65535/],
    [['deploy', 'nginx', '--listen', '8080', '--upstream', 'h:1', '--path', 'mcp'], /--path 'mcp'/],
  ])('%j: a usage error naming the flag, exit 2', async (argv, message) => {
    const run = await sandbox.run(argv);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });
});

/** Resolves with the URL `switchboard serve --http --port 0` prints once it listens. */
async function servedUrl(stderr: EventLog<string>): Promise<string> {
  const line = await stderr.find((text) => /on http:\/\/\S+/.test(text), {
    timeoutMs: 30_000,
    what: 'serve to listen',
  });
  return /on (http:\/\/\S+)/.exec(line)?.[1] as string;
}

/** Stops `child`: SIGTERM, then SIGKILL after 5 s; resolves once it has exited. */
async function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  // The kill after 5 s is a grace period, not a wait: the exit ends it.
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await waitForExit(child, { timeoutMs: 30_000 });
  clearTimeout(timer);
}

/**
 * Connections to 127.0.0.1:`port` nobody has closed yet (ESTABLISHED, or CLOSE_WAIT: the peer
 * closed, the owner has not noticed): once none is left, nginx has seen its idle connections to a
 * killed replica close. The kernel tells no one, so this is read from /proc/net/tcp.
 */
function openConnectionsTo(port: number): number {
  const remote = `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter(([, , address, state]) => address === remote && (state === '01' || state === '08')).length;
}

/** The replica that served each logged request: the last address when nginx moved on. */
function servedBy(accessLog: string): string[] {
  return [...accessLog.matchAll(/upstream=(\S+(?:, \S+)*) upstream_status=/g)].map(
    (match) => match[1]!.split(', ').at(-1)!,
  );
}

// In CI the services script installs nginx first; elsewhere a machine without it skips these.
describe.skipIf(!nginxBin && !process.env.CI)('the generated config in the real nginx', () => {
  const dir = join(sandbox.root, 'nginx');
  const configFile = join(sandbox.root, 'mcp.json');
  const replicas: Array<{ child: ChildProcess; stderr: EventLog<string>; url: string; address: string }> = [];
  let nginx: ChildProcess | undefined;
  let nginxUrl = '';
  const accessLog = () => readFileSync(join(dir, 'access.log'), 'utf8');
  const nginxArgs = ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')];

  beforeAll(async () => {
    // Started by root, nginx's workers run as nobody and must reach the temp folders under `dir`
    // (request bodies over 16 KiB go to client_body_temp).
    chmodSync(sandbox.root, 0o755);
    mkdirSync(dir, { recursive: true });
    mkdirSync(sandbox.home, { recursive: true });
    writeFileSync(
      configFile,
      JSON.stringify({
        mcpServers: {
          everything: everythingStdio(),
        },
      }),
    );
    for (let index = 0; index < 3; index++) {
      // Debug logs: the replica's stderr then carries its upstream's stderr (read below).
      const child = spawn(process.execPath, [bin, 'serve', '--http', '--port', '0', '--config', configFile], {
        env: { ...sandbox.env, SWITCHBOARD_LOG: 'debug' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      replicas.push({
        child,
        stderr: readLines(child.stderr!, `replica ${index + 1}'s stderr`),
        url: '',
        address: '',
      });
    }
    for (const replica of replicas) {
      replica.url = await servedUrl(replica.stderr);
      replica.address = new URL(replica.url).host;
    }
    // A port from freePort() is free when asked, not when nginx binds it: a server another test
    // starts in between may take it (nginx then exits, and that server answers in its place). So
    // the port counts only once nginx is still running and its own Server header answers; else
    // another port, a few times.
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      nginxUrl = `http://127.0.0.1:${port}/mcp`;
      const run = await sandbox.run([
        'deploy',
        'nginx',
        '--listen',
        String(port),
        '--prefix',
        dir,
        ...replicas.flatMap((replica) => ['--upstream', replica.address]),
      ]);
      expect(run.code, run.stderr).toBe(0);
      writeFileSync(join(dir, 'nginx.conf'), run.stdout);
      nginx = spawn(nginxBin ?? 'nginx', nginxArgs, { stdio: ['ignore', 'ignore', 'pipe'] });
      const bound = await waitForPort(port, { process: nginx, what: `nginx to listen on ${port}` }).then(
        () => true,
        (error: unknown) => {
          if (attempt === 3) throw error;
          return false;
        },
      );
      const health = bound ? await fetch(`http://127.0.0.1:${port}/health`) : undefined;
      const ours = nginx.exitCode === null && /^nginx/.test(health?.headers.get('server') ?? '');
      if (ours || attempt === 3) {
        expect(ours, `port ${port} is answered by nginx (server: ${health?.headers.get('server')})`).toBe(
          true,
        );
        expect(health?.status).toBe(200);
        break;
      }
      await stopProcess(nginx);
    }
    // server-everything asks its client (the gateway) for roots 350 ms after initialize, and the
    // gateway hands that request to the downstream client of a call in flight: a call then would
    // fail for want of the roots capability, or, answered, come back with a requestState that only
    // the replica which sealed it can open. Calls start once every replica is past that point: the
    // gateway refused the question outside any call, and server-everything said so on its stderr.
    for (const replica of replicas) {
      await replica.stderr.find((line) => /roots/i.test(line) && line.includes('"server":"everything"'), {
        what: `server-everything behind ${replica.address} to ask for roots`,
      });
    }
  });

  afterAll(async () => {
    // nginx first, and by SIGTERM: its master stops the workers (a SIGKILLed master leaves them).
    await stopProcess(nginx);
    await Promise.all(replicas.map((replica) => stopProcess(replica.child)));
  });

  it('nginx -t accepts the generated file', () => {
    const check = spawnSync(nginxBin ?? 'nginx', ['-t', ...nginxArgs], { encoding: 'utf8' });
    expect(check.status, check.stderr).toBe(0);
    expect(check.stderr).toContain('test is successful');
  });

  /** `count` calls of `get-sum` through `url` by each SDK era; returns their results. */
  async function callBothEras(url: string, count: number): Promise<unknown[]> {
    const modern = new ModernClient(
      { name: 'sdk-v2', version: '2.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    const legacy = new LegacyClient({ name: 'sdk-v1', version: '1.0.0' });
    try {
      await modern.connect(new ModernTransport(new URL(url)));
      await legacy.connect(new LegacyTransport(new URL(url)));
      expect(modern.getProtocolEra()).toBe('modern');
      const results: unknown[] = [];
      for (let index = 0; index < count; index++) {
        const args = { name: 'mcp__everything__get-sum', arguments: { a: index, b: 1 } };
        const viaModern = await modern.callTool(args);
        const viaLegacy = await legacy.callTool(args);
        expect(JSON.stringify(viaModern.content)).toContain(String(index + 1));
        expect(viaLegacy.content).toEqual(viaModern.content);
        results.push(viaModern.content, viaLegacy.content);
      }
      return results;
    } finally {
      await Promise.allSettled([modern.close(), legacy.close()]);
    }
  }

  it('serves calls of both SDK eras through nginx, spread over all three replicas', async () => {
    const before = servedBy(accessLog()).length;
    const viaNginx = await callBothEras(nginxUrl, 15);
    expect(viaNginx).toEqual(await callBothEras(replicas[0]!.url, 15));
    const served = servedBy(accessLog()).slice(before);
    for (const replica of replicas) {
      expect(served, `requests served by ${replica.address}`).toContain(replica.address);
    }
  });

  it('passes a large request body (written to client_body_temp by nginx) and its answer', async () => {
    const message = 'x'.repeat(300_000);
    const modern = new ModernClient(
      { name: 'sdk-v2', version: '2.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    try {
      await modern.connect(new ModernTransport(new URL(nginxUrl)));
      const result = await modern.callTool({ name: 'mcp__everything__echo', arguments: { message } });
      expect(JSON.stringify(result.content)).toContain(message);
    } finally {
      await modern.close();
    }
  });

  it('keeps serving when a replica is killed: nginx moves connection failures to the others', async () => {
    const victim = replicas[2]!;
    victim.child.kill('SIGKILL');
    await waitForExit(victim.child);
    // Let nginx see its idle connections to the victim close: a POST written on one in the same
    // instant would fail rather than be re-sent (see docs/deploy.md).
    const victimPort = Number(new URL(victim.url).port);
    await vi.waitFor(
      () => expect(openConnectionsTo(victimPort), 'open connections to the killed replica').toBe(0),
      {
        timeout: 10_000,
        interval: 20,
      },
    );
    const before = accessLog().split('\n').length - 1;
    await callBothEras(nginxUrl, 15);
    const lines = accessLog().split('\n').slice(before).filter(Boolean);
    // Every request after the kill was answered by a live replica...
    expect(servedBy(lines.join('\n')).filter((address) => address === victim.address)).toEqual([]);
    expect(lines.every((line) => !/" 50[234] /.test(line))).toBe(true);
    // ...and the ones nginx first tried on the dead replica show both addresses.
    expect(lines.some((line) => line.includes(`upstream=${victim.address}, `))).toBe(true);
  });
});
