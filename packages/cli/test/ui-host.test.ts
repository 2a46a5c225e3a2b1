/**
 * `switchboard ui`'s host of the inspector, over real HTTP: what the page gets from the cli rather
 * than from the inspector — an OAuth sign-in started from the page against a real protected server
 * (`switchboard auth`'s flow, tokens under the command's home), a running `switchboard serve`
 * gateway added by its URL (its upstreams read from its tools), and the registry store's calls of
 * an earlier run in the metrics.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type Inspector,
  startInspector,
  type UiCallStarted,
  type UiErrorBody,
  type UiEvent,
  type UiMetrics,
  type UiServer,
  type UiSignIn,
  type UiToolSummary,
} from '@switchboard/inspector';
import { type EventStreamReader, everythingStdio, openEventStream } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandContext } from '../src/cli-command.js';
import { cliInspectorHost } from '../src/cli-inspector-host.js';
import { startAuthorizationServer, startProtectedNotesServer } from './oauth-fixture.js';
import { createSandbox } from './run-cli-helper.js';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const cleanups: Array<() => Promise<unknown> | unknown> = [];
const sandbox = createSandbox();
let authorization: Awaited<ReturnType<typeof startAuthorizationServer>>;
let ui: HostHarness;
let events: EventStreamReader<UiEvent>;

/** A running inspector on the cli's host, with requests carrying its token. */
interface HostHarness {
  inspector: Inspector;
  /** Closes the inspector (once; the file's cleanup closes what a test left open). */
  close(): Promise<void>;
  api<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  events(): Promise<EventStreamReader<UiEvent>>;
}

/** Starts the inspector as `switchboard ui --config FILE` does, on the sandbox's home. */
async function startOnCliHost(servers: Record<string, unknown>): Promise<HostHarness> {
  const configFile = join(sandbox.root, 'mcp.json');
  sandbox.writeConfig(configFile, servers);
  const context: CommandContext = {
    commands: [],
    io: {
      stdout: { write: () => true },
      stderr: { write: () => true },
      env: { ...sandbox.env, SWITCHBOARD_OFFLINE: '1' },
      cwd: sandbox.cwd,
    },
    positionals: [],
    rest: [],
    values: {},
    global: { config: configFile, json: false },
  };
  const inspector = await startInspector({ host: await cliInspectorHost(context), metricsIntervalMs: 200 });
  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= inspector.close();
    return closed;
  };
  cleanups.push(close);
  const headers = { 'x-switchboard-token': inspector.token };
  return {
    inspector,
    close,
    async api<T>(method: string, path: string, body?: unknown) {
      const response = await fetch(`${inspector.origin}${path}`, {
        method,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
    },
    async events() {
      const reader = await openEventStream<UiEvent>(`${inspector.origin}/api/events`, headers);
      cleanups.push(() => reader.close());
      return reader;
    },
  };
}

beforeAll(async () => {
  mkdirSync(sandbox.home, { recursive: true });
  mkdirSync(sandbox.cwd, { recursive: true });
  authorization = await startAuthorizationServer();
  cleanups.push(() => authorization.close());
  const notes = await startProtectedNotesServer(authorization);
  cleanups.push(() => notes.close());
  ui = await startOnCliHost({
    everything: everythingStdio(),
    notes: { url: notes.url },
  });
  events = await ui.events();
});
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  sandbox.cleanup();
});

const serverNamed =
  (name: string, condition: (server: UiServer) => boolean) =>
  (event: UiEvent): event is Extract<UiEvent, { type: 'servers' }> =>
    event.type === 'servers' && event.servers.some((server) => server.name === name && condition(server));

describe('switchboard ui: servers through the cli', () => {
  it('adds a running gateway by its URL and shows its upstreams', async () => {
    const configFile = join(sandbox.root, 'gateway.json');
    sandbox.writeConfig(configFile, {
      everything: everythingStdio(),
    });
    const gateway = spawn(process.execPath, [bin, 'serve', '--http', '--port', '0', '--config', configFile], {
      env: { ...sandbox.env, SWITCHBOARD_STORE: 'off' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    cleanups.push(() => gateway.kill('SIGKILL'));
    const url = await lineOf(gateway, /on (http:\/\/\S+)/);
    const added = await ui.api<UiServer>('POST', '/api/servers', { name: 'gateway', url });
    expect(added.body).toMatchObject({ state: 'connected', transport: 'http', upstreams: ['everything'] });
    expect((await ui.api<UiServer>('GET', '/api/servers/everything')).body.upstreams).toBeUndefined();
    await ui.api('DELETE', '/api/servers/gateway');
  });
});

describe('switchboard ui: OAuth sign-in from the page', () => {
  it('shows a protected server as needing a sign-in, signs in through the returned URL, then connects', async () => {
    expect((await ui.api<UiServer>('GET', '/api/servers/notes')).body.state).toBe('needs-auth');
    const stdio = await ui.api<UiErrorBody>('POST', '/api/servers/everything/sign-in');
    expect(stdio.body.error.code).toBe('UI_SIGN_IN_UNAVAILABLE');
    const started = await ui.api<UiSignIn>('POST', '/api/servers/notes/sign-in');
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ server: 'notes', state: 'started' });
    const authorizationUrl = started.body.authorizationUrl as string;
    expect(authorizationUrl).toContain(`${authorization.issuer}/authorize?`);
    // The person's browser: the authorization server redirects to the loopback redirect of the process.
    const answer = await fetch(authorizationUrl, { redirect: 'manual' });
    await (await fetch(answer.headers.get('location') ?? '')).text();
    // Connected comes first, its tools a moment later (they are reviewed by trust on the way in).
    await events.next(serverNamed('notes', (server) => server.state === 'connected' && server.toolCount > 0));
    const tools = (await ui.api<UiToolSummary[]>('GET', '/api/servers/notes/tools')).body;
    expect(tools.map((tool) => tool.name)).toEqual(['list_notes']);
    const token = [...authorization.issued.keys()][0] as string;
    const log = await fetch(`${ui.inspector.origin}/api/log`, {
      headers: { 'x-switchboard-token': ui.inspector.token },
    });
    expect(await log.text()).not.toContain(token);
  });
});

describe('switchboard ui: metrics through the cli', () => {
  it('shows the registry store’s calls of an earlier run beside this run’s', async () => {
    const first = await startOnCliHost({ everything: everythingStdio() });
    const firstEvents = await first.events();
    for (const message of ['one', 'two']) {
      const started = (
        await first.api<UiCallStarted>('POST', '/api/calls', {
          server: 'everything',
          tool: 'echo',
          arguments: { message },
        })
      ).body;
      await firstEvents.next(
        (event): event is Extract<UiEvent, { type: 'call-end' }> =>
          event.type === 'call-end' && event.call.callId === started.callId,
      );
    }
    // Closing writes the run's calls to the store (a SQLite file under the sandbox's home).
    firstEvents.close();
    await first.close();
    const second = await startOnCliHost({ everything: everythingStdio() });
    const metrics = (await second.api<UiMetrics>('GET', '/api/metrics')).body;
    expect(metrics.toolCalls).toContainEqual(
      expect.objectContaining({ server: 'everything', tool: 'echo', calls: 0, storedCalls: 2 }),
    );
  });
});

/** The first capture of `pattern` in the child's stderr. */
function lineOf(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = pattern.exec(seen);
      if (match) resolve(match[1] as string);
    });
    child.once('exit', (code) => reject(new Error(`exited (${code}) before printing ${pattern}: ${seen}`)));
  });
}
