/**
 * Servers managed from the page, over real HTTP: a command added and removed, disconnect and
 * connect, a server that fails to start, and a sign-in the page cannot start. (A running gateway
 * added by its URL and an OAuth sign-in go through `switchboard ui`'s host: the cli's tests.)
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { everythingStdio, freePort, serverScript } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UiErrorBody, UiServer, UiServerCard, UiToolSummary } from '../src/ui-api.js';
import { type EventReader, eventOf, startUi, type UiHarness } from './inspector-harness.js';

const secret = 'page-secret-77d1c0e9b4';

let ui: UiHarness;
let events: EventReader;

beforeAll(async () => {
  ui = await startUi({
    everything: everythingStdio(),
    // A remote server nothing answers for: it can be asked to sign in, and says it cannot.
    remote: { url: `http://127.0.0.1:${await freePort()}/mcp` },
  });
  events = await ui.events();
});
afterAll(async () => {
  await ui?.close();
});

const serverNamed = (name: string, condition: (server: UiServer) => boolean) =>
  eventOf('servers', (event) => event.servers.some((server) => server.name === name && condition(server)));

describe('switchboard ui: servers from the page', () => {
  it('answers a server card route: none for a URL server that publishes none, not-remote for stdio', async () => {
    // (A card that is found, and its view, are in test-browser/server-card.browser.ts.)
    const remote = await ui.api<UiServerCard>('GET', '/api/servers/remote/card');
    expect(remote).toEqual({ status: 200, body: { status: 'none' } });
    const local = await ui.api<UiServerCard>('GET', '/api/servers/everything/card');
    expect(local).toEqual({ status: 200, body: { status: 'not-remote' } });
    const unknown = await ui.api<UiErrorBody>('GET', '/api/servers/nope/card');
    expect(unknown.status).toBe(404);
  });

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

  it('says a server cannot sign in from the page when it is not remote, or when the host gives no sign-in', async () => {
    const stdio = await ui.api<UiErrorBody>('POST', '/api/servers/everything/sign-in');
    expect(stdio.body.error.code).toBe('UI_SIGN_IN_UNAVAILABLE');
    expect(stdio.body.error.message).toContain('not a remote (HTTP) server');
    const remote = await ui.api<UiErrorBody>('POST', '/api/servers/remote/sign-in');
    expect(remote.body.error.code).toBe('UI_SIGN_IN_UNAVAILABLE');
    expect(remote.body.error.message).toContain('gives no sign-in');
  });
});
