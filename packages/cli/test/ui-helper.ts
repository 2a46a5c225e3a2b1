/**
 * What the `switchboard ui` tests share: a real session over real servers (a config file in a
 * sandbox, the CLI's own loading and connecting), its real HTTP server on port 0, requests with
 * the token, and a reader of the live event stream.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandContext } from '../src/cli-command.js';
import { createUiServer, type UiServerHandle } from '../src/inspector/ui-server.js';
import { createUiSession, type UiSession } from '../src/inspector/ui-session.js';
import type { UiEvent } from '../src/ui/ui-api.js';
import { createSandbox } from './run-cli-helper.js';

/** A running session and its server. */
export interface UiHarness {
  session: UiSession;
  server: UiServerHandle;
  sandbox: ReturnType<typeof createSandbox>;
  /** A request with the token header (and JSON body); answers the status and the parsed body. */
  api<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  /** Opens the live stream; close it when done. */
  events(): Promise<EventReader>;
  close(): Promise<void>;
}

/** Reads SSE events as they come. */
export interface EventReader {
  readonly received: UiEvent[];
  /** Resolves with the first event (already received or to come) that `predicate` accepts. */
  next<T extends UiEvent>(predicate: (event: UiEvent) => event is T, timeoutMs?: number): Promise<T>;
  close(): void;
}

/** Starts a session over `servers` (config entries), with a page folder holding a stub index.html. */
export async function startUi(
  servers: Record<string, unknown>,
  options: {
    env?: Record<string, string>;
    /** Run in this sandbox (its home: the store, sign-ins) and leave it for the caller to clean up. */
    sandbox?: ReturnType<typeof createSandbox>;
  } = {},
): Promise<UiHarness> {
  const sandbox = options.sandbox ?? createSandbox();
  mkdirSync(sandbox.home, { recursive: true });
  mkdirSync(sandbox.cwd, { recursive: true });
  const configFile = join(sandbox.root, 'mcp.json');
  sandbox.writeConfig(configFile, servers);
  const staticDir = mkdtempSync(join(tmpdir(), 'switchboard-ui-page-'));
  writeFileSync(
    join(staticDir, 'index.html'),
    '<!doctype html><title>switchboard ui</title><script src="/app.js"></script>',
  );
  writeFileSync(join(staticDir, 'app.js'), 'console.log("page")');
  let stderr = '';
  const context: CommandContext = {
    commands: [],
    io: {
      stdout: { write: () => true },
      stderr: { write: (text: string) => (stderr += text) },
      env: { ...sandbox.env, SWITCHBOARD_OFFLINE: '1', ...options.env },
      cwd: sandbox.cwd,
    },
    positionals: [],
    rest: [],
    values: {},
    global: { config: configFile, json: false },
  };
  const session = await createUiSession({ context, metricsIntervalMs: 200 });
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
      const reader = await openEvents(server);
      readers.push(reader);
      return reader;
    },
    async close() {
      for (const reader of readers) reader.close();
      await server.close();
      await session.close();
      if (!options.sandbox) sandbox.cleanup();
      if (process.env.SWITCHBOARD_UI_TEST_STDERR) process.stderr.write(stderr);
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

/** Opens `GET /api/events` and parses its events. */
function openEvents(server: UiServerHandle): Promise<EventReader> {
  return new Promise((resolve, reject) => {
    const received: UiEvent[] = [];
    const waiters = new Set<() => void>();
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port: server.port,
        path: '/api/events',
        headers: { 'x-switchboard-token': server.token, accept: 'text/event-stream' },
      },
      (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`GET /api/events answered ${response.statusCode}`));
          return;
        }
        let buffer = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          buffer += chunk;
          let end = buffer.indexOf('\n\n');
          while (end >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = block
              .split('\n')
              .filter((line) => line.startsWith('data: '))
              .map((line) => line.slice(6))
              .join('\n');
            if (data) received.push(JSON.parse(data) as UiEvent);
            end = buffer.indexOf('\n\n');
          }
          for (const waiter of [...waiters]) waiter();
        });
        resolve({
          received,
          next<T extends UiEvent>(predicate: (event: UiEvent) => event is T, timeoutMs = 30_000) {
            return new Promise<T>((resolveNext, rejectNext) => {
              const check = () => {
                const found = received.find(predicate);
                if (!found) return;
                waiters.delete(check);
                clearTimeout(timer);
                resolveNext(found);
              };
              const timer = setTimeout(() => {
                waiters.delete(check);
                rejectNext(
                  new Error(
                    `no such event within ${timeoutMs} ms; received: ${received.map((event) => event.type).join(', ')}`,
                  ),
                );
              }, timeoutMs);
              waiters.add(check);
              check();
            });
          },
          close: () => request.destroy(),
        });
      },
    );
    request.on('error', (error) => {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error);
    });
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
