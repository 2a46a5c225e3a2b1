/**
 * What the inspector's tests share: a real session over real servers (a config file in a temp
 * folder, read by the client's `loadConfig`, connected by `connectMcp` — the host a program gives
 * with `@switchboard/client` alone), its real HTTP server on port 0, requests with the token, and
 * a reader of the live event stream.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@switchboard/client';
import { type EventStreamReader, openEventStream } from '@switchboard/test-helpers';
import type { InspectorHost } from '../src/inspector-host.js';
import type { UiEvent } from '../src/ui-api.js';
import { createUiServer, type UiServerHandle } from '../src/ui-server.js';
import { createUiSession, type UiSession } from '../src/ui-session.js';

/** A temp folder: the config, a home, and room for a test's own files. */
export interface Sandbox {
  root: string;
  home: string;
  cwd: string;
  cleanup(): void;
}

/** A running session and its server. */
export interface UiHarness {
  session: UiSession;
  server: UiServerHandle;
  sandbox: Sandbox;
  /** A request with the token header (and JSON body); answers the status and the parsed body. */
  api<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  /** Opens the live stream; close it when done. */
  events(): Promise<EventReader>;
  close(): Promise<void>;
}

/** Reads the page's live events as they come. */
export type EventReader = EventStreamReader<UiEvent>;

/** A fresh temp folder with a home and a project folder. */
export function createSandbox(): Sandbox {
  const root = mkdtempSync(join(tmpdir(), 'switchboard-inspector-'));
  const home = join(root, 'home');
  const cwd = join(root, 'project');
  mkdirSync(home, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  return { root, home, cwd, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/**
 * Starts a session over `servers` (config entries), with a page folder holding a stub index.html;
 * `host` replaces parts of the host (a sign-in, stored usage).
 */
export async function startUi(
  servers: Record<string, unknown>,
  options: {
    /** Run in this sandbox and leave it for the caller to clean up. */
    sandbox?: Sandbox;
    host?: Partial<InspectorHost>;
  } = {},
): Promise<UiHarness> {
  const sandbox = options.sandbox ?? createSandbox();
  const configFile = join(sandbox.root, 'mcp.json');
  writeFileSync(configFile, JSON.stringify({ mcpServers: servers }, null, 2));
  const staticDir = mkdtempSync(join(tmpdir(), 'switchboard-ui-page-'));
  writeFileSync(
    join(staticDir, 'index.html'),
    '<!doctype html><title>switchboard ui</title><script src="/app.js"></script>',
  );
  writeFileSync(join(staticDir, 'app.js'), 'console.log("page")');
  const config = await loadConfig({
    cwd: sandbox.cwd,
    home: sandbox.home,
    env: { PATH: process.env.PATH },
    configFile,
  });
  const session = await createUiSession({
    host: { servers: config.mcpServers, cwd: sandbox.cwd, ...options.host },
    metricsIntervalMs: 200,
  });
  const server = await createUiServer({ session, staticDir });
  const readers: EventReader[] = [];
  return {
    session,
    server,
    sandbox,
    async api<T>(method: string, path: string, body?: unknown) {
      const response = await fetch(`${server.origin}${path}`, {
        method,
        headers: {
          'x-switchboard-token': server.token,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
    },
    async events() {
      const reader = await openEventStream<UiEvent>(`${server.origin}/api/events`, {
        'x-switchboard-token': server.token,
      });
      readers.push(reader);
      return reader;
    },
    async close() {
      for (const reader of readers) reader.close();
      await server.close();
      await session.close();
      rmSync(staticDir, { recursive: true, force: true });
      if (!options.sandbox) sandbox.cleanup();
    },
  };
}

/** A raw request (any Host, Origin, cookies): answers status, headers and body text. */
export function rawRequest(
  server: UiServerHandle,
  path: string,
  headers: Record<string, string>,
  method = 'GET',
): Promise<{ status: number; headers: IncomingMessage['headers']; text: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port: server.port, path, method, headers, setHost: !('host' in headers) },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text }),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });
}

/** A type guard for events of one type (and a further condition). */
export function eventOf<K extends UiEvent['type']>(
  type: K,
  condition: (event: Extract<UiEvent, { type: K }>) => boolean = () => true,
): (event: UiEvent) => event is Extract<UiEvent, { type: K }> {
  return (event): event is Extract<UiEvent, { type: K }> =>
    event.type === type && condition(event as Extract<UiEvent, { type: K }>);
}
