/**
 * Servers managed from the page, over real HTTP: a command added and removed, disconnect and
 * connect, a server that fails to start, a running Switchboard gateway added by its URL (its
 * upstreams read from its tools), and an OAuth sign-in started from the page against a real
 * protected server.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UiErrorBody, UiServer, UiSignIn, UiToolSummary } from '../src/ui/ui-api.js';
import { startAuthorizationServer, startProtectedNotesServer } from './oauth-fixture.js';
import { serverScript } from './run-cli-helper.js';
import { type EventReader, eventOf, startUi, type UiHarness } from './ui-helper.js';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const secret = 'page-secret-77d1c0e9b4';

const cleanups: Array<() => Promise<unknown> | unknown> = [];
let ui: UiHarness;
let events: EventReader;
let notesUrl: string;
let authorization: Awaited<ReturnType<typeof startAuthorizationServer>>;

beforeAll(async () => {
  authorization = await startAuthorizationServer();
  cleanups.push(() => authorization.close());
  const notes = await startProtectedNotesServer(authorization);
  cleanups.push(() => notes.close());
  notesUrl = notes.url;
  ui = await startUi({
    everything: { command: process.execPath, args: [serverScript('server-everything'), 'stdio'] },
    notes: { url: notesUrl },
  });
  cleanups.push(() => ui.close());
  events = await ui.events();
});
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const serverNamed = (name: string, condition: (server: UiServer) => boolean) =>
  eventOf('servers', (event) => event.servers.some((server) => server.name === name && condition(server)));

describe('switchboard ui: servers from the page', () => {
  it('adds a local command, lists its tools, masks its secrets, and removes it', async () => {
    const memoryFile = join(mkdtempSync(join(tmpdir(), 'sb-ui-memory-')), 'memory.jsonl');
    const added = await ui.api<UiServer>('POST', '/api/servers', {
      name: 'memory',
      command: process.execPath,
      args: [serverScript('server-memory')],
      env: { MEMORY_FILE_PATH: memoryFile, MEMORY_TOKEN: secret },
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      name: 'memory',
      origin: 'page',
      state: 'connected',
      transport: 'stdio',
    });
    expect(added.body.toolCount).toBeGreaterThan(0);
    await events.next(serverNamed('memory', (server) => server.state === 'connected'));
    const tools = (await ui.api<UiToolSummary[]>('GET', '/api/servers/memory/tools')).body;
    expect(tools.map((tool) => tool.name)).toContain('read_graph');

    const duplicate = await ui.api<UiErrorBody>('POST', '/api/servers', { name: 'memory', command: 'node' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.code).toBe('UI_SERVER_EXISTS');
    const both = await ui.api<UiErrorBody>('POST', '/api/servers', {
      name: 'x',
      command: 'node',
      url: 'http://a/',
    });
    expect(both.status).toBe(400);
    expect(both.body.error.message).toContain('not both');
    expect(
      (await ui.api<UiErrorBody>('POST', '/api/servers', { name: '../x', command: 'node' })).status,
    ).toBe(400);

    const configured = await ui.api<UiErrorBody>('DELETE', '/api/servers/everything');
    expect(configured.status).toBe(409);
    expect(configured.body.error.code).toBe('UI_SERVER_NOT_REMOVABLE');
    const removed = await ui.api<UiServer[]>('DELETE', '/api/servers/memory');
    expect(removed.status).toBe(200);
    expect(removed.body.map((server) => server.name)).not.toContain('memory');
    expect(JSON.stringify(events.received)).not.toContain(secret);
  });

  it('keeps a page server that fails to start, with its error, until it is removed', async () => {
    const added = await ui.api<UiServer>('POST', '/api/servers', {
      name: 'broken',
      command: process.execPath,
      args: ['-e', 'process.exit(3)'],
    });
    expect(added.status).toBe(201);
    expect(added.body.state).toBe('failed');
    expect(added.body.lastError?.code).toBeDefined();
    expect(added.body.lastError?.message.length).toBeGreaterThan(0);
    await ui.api('DELETE', '/api/servers/broken');
  });

  it('disconnects a server (its tools go) and connects it again', async () => {
    const disconnected = await ui.api<UiServer>('POST', '/api/servers/everything/disconnect');
    expect(disconnected.body).toMatchObject({ state: 'disconnected', toolCount: 0 });
    expect((await ui.api<UiToolSummary[]>('GET', '/api/servers/everything/tools')).body).toEqual([]);
    const call = await ui.api<UiErrorBody>('POST', '/api/calls', {
      server: 'everything',
      tool: 'echo',
      arguments: {},
    });
    expect(call.body.error.code).toBe('UI_UNKNOWN_TOOL');
    const connected = await ui.api<UiServer>('POST', '/api/servers/everything/connect');
    expect(connected.body.state).toBe('connected');
    expect(connected.body.toolCount).toBeGreaterThan(10);
    const reconnected = await ui.api<UiServer>('POST', '/api/servers/everything/reconnect');
    expect(reconnected.body.state).toBe('connected');
  });

  it('adds a running gateway by its URL and shows its upstreams', async () => {
    const configFile = join(ui.sandbox.root, 'gateway.json');
    ui.sandbox.writeConfig(configFile, {
      everything: { command: process.execPath, args: [serverScript('server-everything'), 'stdio'] },
    });
    const gateway = spawn(process.execPath, [bin, 'serve', '--http', '--port', '0', '--config', configFile], {
      env: { ...ui.sandbox.env, SWITCHBOARD_STORE: 'off' },
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
    await events.next(serverNamed('notes', (server) => server.state === 'connected'));
    const tools = (await ui.api<UiToolSummary[]>('GET', '/api/servers/notes/tools')).body;
    expect(tools.map((tool) => tool.name)).toEqual(['list_notes']);
    const token = [...authorization.issued.keys()][0] as string;
    const log = await fetch(`${ui.server.origin}/api/log`, {
      headers: { 'x-switchboard-token': ui.server.token },
    });
    expect(await log.text()).not.toContain(token);
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
