/**
 * `switchboard ui`'s HTTP server over real HTTP, in front of a real session of server-everything
 * and server-filesystem: who is refused (no token, a wrong token, a foreign Origin or Host, a
 * cross-site fetch), how the token becomes a cookie, the page's files, and the servers and tools
 * the API lists.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { everythingStdio, filesystemStdio } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UiErrorBody, UiServer, UiToolDetail, UiToolSummary } from '../src/ui-api.js';
import { tokenCookieName } from '../src/ui-request-guard.js';
import { createUiServer } from '../src/ui-server.js';
import { locateStaticDir } from '../src/ui-static-files.js';
import { rawRequest, startUi, type UiHarness } from './inspector-harness.js';

let ui: UiHarness;
let files: string;

beforeAll(async () => {
  files = mkdtempSync(join(tmpdir(), 'switchboard-ui-files-'));
  writeFileSync(join(files, 'hello.txt'), 'hello');
  ui = await startUi({
    everything: everythingStdio(),
    files: filesystemStdio(files),
  });
});
afterAll(async () => {
  await ui?.close();
});

const host = () => `127.0.0.1:${ui.server.port}`;
const errorOf = (text: string) => (JSON.parse(text) as UiErrorBody).error;

describe('switchboard ui: who may talk to it', () => {
  it('refuses a request without the token, for the API and for the page alike', async () => {
    for (const path of ['/api/servers', '/', '/app.js']) {
      const answer = await rawRequest(ui.server, path, {});
      expect(answer.status, path).toBe(403);
      expect(errorOf(answer.text).code).toBe('UI_TOKEN_REQUIRED');
      expect(answer.text).not.toContain(ui.server.token);
    }
    const wrong = await rawRequest(ui.server, '/api/servers', { 'x-switchboard-token': 'not-the-token' });
    expect(wrong.status).toBe(403);
    const wrongQuery = await rawRequest(ui.server, '/api/servers?token=not-the-token', {});
    expect(wrongQuery.status).toBe(403);
  });

  it('refuses another Origin, even with the token', async () => {
    const answer = await rawRequest(
      ui.server,
      '/api/servers',
      { 'x-switchboard-token': ui.server.token, origin: 'http://evil.example' },
      'GET',
    );
    expect(answer.status).toBe(403);
    expect(errorOf(answer.text)).toMatchObject({ code: 'UI_ORIGIN_REFUSED' });
    expect(errorOf(answer.text).message).toContain('http://evil.example');
    // Another local port is another origin too.
    const otherPort = await rawRequest(ui.server, '/api/servers', {
      'x-switchboard-token': ui.server.token,
      origin: `http://127.0.0.1:${ui.server.port + 1}`,
    });
    expect(otherPort.status).toBe(403);
    const own = await rawRequest(ui.server, '/api/servers', {
      'x-switchboard-token': ui.server.token,
      origin: ui.server.origin,
    });
    expect(own.status).toBe(200);
  });

  it('refuses a cross-site fetch that sends no Origin (Sec-Fetch-Site)', async () => {
    const answer = await rawRequest(ui.server, '/api/servers', {
      'x-switchboard-token': ui.server.token,
      'sec-fetch-site': 'same-site',
    });
    expect(answer.status).toBe(403);
    expect(errorOf(answer.text).code).toBe('UI_ORIGIN_REFUSED');
  });

  it('refuses another Host (DNS rebinding), even with the token', async () => {
    const answer = await rawRequest(ui.server, '/api/servers', {
      host: `rebound.example:${ui.server.port}`,
      'x-switchboard-token': ui.server.token,
    });
    expect(answer.status).toBe(403);
    expect(errorOf(answer.text).code).toBe('UI_HOST_REFUSED');
    const localhost = await rawRequest(ui.server, '/api/servers', {
      host: `localhost:${ui.server.port}`,
      'x-switchboard-token': ui.server.token,
    });
    expect(localhost.status).toBe(200);
  });

  it('turns ?token= into an HttpOnly SameSite=Strict cookie that works for the next request', async () => {
    const first = await rawRequest(ui.server, `/api/servers?token=${ui.server.token}`, { host: host() });
    expect(first.status).toBe(200);
    const cookie = String(first.headers['set-cookie']);
    expect(cookie).toContain(`${tokenCookieName(ui.server.port)}=${ui.server.token}`);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    const second = await rawRequest(ui.server, '/api/servers', { cookie: cookie.split(';')[0] as string });
    expect(second.status).toBe(200);
    expect((JSON.parse(second.text) as UiServer[]).length).toBe(2);
    // Another process's cookie (another port) is not this one's.
    const foreign = await rawRequest(ui.server, '/api/servers', {
      cookie: `${tokenCookieName(ui.server.port + 1)}=${ui.server.token}`,
    });
    expect(foreign.status).toBe(403);
  });

  it('sends a page load with the token on to the same URL without it, and serves the page with a CSP', async () => {
    const load = await rawRequest(ui.server, `/?token=${ui.server.token}&view=tools`, {});
    expect(load.status).toBe(303);
    expect(load.headers.location).toBe('/?view=tools');
    const cookie = String(load.headers['set-cookie']).split(';')[0] as string;
    const page = await rawRequest(ui.server, '/?view=tools', { cookie });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.text).toContain('<title>switchboard ui</title>');
    const script = await rawRequest(ui.server, '/app.js', { cookie });
    expect(script.headers['content-type']).toContain('text/javascript');
    // A client-side route is the page too; a missing file or a way out of the folder is not.
    expect((await rawRequest(ui.server, '/tools/everything', { cookie })).text).toContain('switchboard ui');
    expect((await rawRequest(ui.server, '/missing.js', { cookie })).status).toBe(404);
    const outside = await rawRequest(ui.server, '/..%2f..%2fpackage.json', { cookie });
    expect(outside.status).toBe(404);
    expect(outside.text).not.toContain('"name"');
  });

  it('says the page is not built, with what to run, when its folder has no index.html', async () => {
    const empty = await createUiServer({
      session: ui.session,
      staticDir: mkdtempSync(join(tmpdir(), 'sb-ui-none-')),
    });
    expect(empty.pageBuilt).toBe(false);
    expect(ui.server.pageBuilt).toBe(true);
    try {
      const answer = await rawRequest(empty, '/', { 'x-switchboard-token': empty.token });
      expect(answer.status).toBe(503);
      expect(errorOf(answer.text)).toMatchObject({ code: 'UI_PAGE_MISSING' });
      expect(errorOf(answer.text).message).toContain('pnpm --filter @switchboard/inspector build');
    } finally {
      await empty.close();
    }
  });

  it('finds dist/page of the @switchboard/inspector package from the sources', () => {
    expect(locateStaticDir()).toBe(join(__dirname, '..', 'dist', 'page'));
  });
});

describe('switchboard ui: servers and tools', () => {
  it('lists both servers with their state, era, transport and tool count', async () => {
    const { status, body } = await ui.api<UiServer[]>('GET', '/api/servers');
    expect(status).toBe(200);
    const byName = Object.fromEntries(body.map((server) => [server.name, server]));
    expect(byName.everything).toMatchObject({
      state: 'connected',
      origin: 'config',
      transport: 'stdio',
      era: 'legacy',
      serverInfo: { name: 'mcp-servers/everything' },
    });
    expect(byName.everything?.toolCount).toBeGreaterThanOrEqual(10);
    expect(byName.files?.toolCount).toBeGreaterThanOrEqual(10);
    expect(byName.files?.target).toContain('server-filesystem');
    const one = await ui.api<UiServer>('GET', '/api/servers/files');
    expect(one.body.name).toBe('files');
  });

  it('lists a server’s tools with kind and approval verdict, and shows one with its provider forms', async () => {
    const tools = (await ui.api<UiToolSummary[]>('GET', '/api/servers/files/tools')).body;
    const write = tools.find((tool) => tool.name === 'write_file');
    expect(write).toMatchObject({ server: 'files', publicName: 'mcp__files__write_file', approval: 'ask' });
    expect(write?.annotations).toMatchObject({ destructiveHint: true });
    expect(tools.find((tool) => tool.name === 'read_text_file')).toMatchObject({
      approval: 'allow',
      kind: 'read',
    });

    const { status, body } = await ui.api<UiToolDetail>('GET', '/api/servers/everything/tools/get-sum');
    expect(status).toBe(200);
    expect(body.inputSchema).toMatchObject({ properties: { a: { type: 'number' }, b: { type: 'number' } } });
    expect(body.providers.openai.tool).toMatchObject({
      type: 'function',
      function: { name: 'mcp__everything__get-sum' },
    });
    expect(body.providers.anthropic.tool).toMatchObject({
      name: 'mcp__everything__get-sum',
      input_schema: expect.any(Object),
    });
    expect(body.providers.gemini.tool).toMatchObject({
      name: 'mcp__everything__get-sum',
      parameters: expect.any(Object),
    });
    // OpenAI strict mode rewrites this schema: the page says how.
    expect(Array.isArray(body.providers.openai.lossy)).toBe(true);
  });

  it('answers unknown names, methods and bodies with a code and what to do, and keeps serving', async () => {
    const unknownServer = await ui.api<UiErrorBody>('GET', '/api/servers/nope/tools');
    expect(unknownServer.status).toBe(404);
    expect(unknownServer.body.error.code).toBe('UI_UNKNOWN_SERVER');
    expect(unknownServer.body.error.message).toContain('everything');
    const unknownTool = await ui.api<UiErrorBody>('GET', '/api/servers/everything/tools/nope');
    expect(unknownTool.body.error.code).toBe('UI_UNKNOWN_TOOL');
    expect((await ui.api<UiErrorBody>('PUT', '/api/servers')).status).toBe(405);
    expect((await ui.api<UiErrorBody>('GET', '/api/nothing')).body.error.code).toBe('UI_NOT_FOUND');
    const notJson = await fetch(`${ui.server.origin}/api/calls`, {
      method: 'POST',
      headers: { 'x-switchboard-token': ui.server.token, 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as UiErrorBody).error.code).toBe('UI_BAD_REQUEST');
    expect((await ui.api('GET', '/api/servers')).status).toBe(200);
  });
});
