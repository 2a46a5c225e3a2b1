/**
 * Replica identity, health, readiness and drain of one HTTP server (the built-in in-memory
 * cluster state: no Redis needed), plus the option checks of the replica options.
 */

import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { envelope, waitForEvent } from '@switchboard/test-helpers';
import { afterEach, describe, expect, test } from 'vitest';
import {
  createMemoryClusterState,
  type HttpTransportOptions,
  type ServeHandle,
  serve,
} from '../src/index.js';
import { createEchoServer, echoServerEvents } from './fixtures/echo-server.js';
import { openSession, sessionHeaders, sessionRequest } from './fixtures/raw-session.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function start(options: Partial<HttpTransportOptions> = {}): Promise<ServeHandle & { url: string }> {
  const handle = await serve(createEchoServer(), {
    transport: { type: 'http', port: 0, replicaId: 'a1', ...options },
  });
  cleanups.push(() => handle.close());
  return handle as ServeHandle & { url: string };
}

function rawPost(
  url: string,
  body: unknown,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' } },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }),
        );
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

function canConnect(url: string): Promise<boolean> {
  const { port, hostname } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('replica identity, health and readiness', () => {
  test('every response names the replica; /health and /ready answer 200 with it', async () => {
    const handle = await start();
    expect(handle.replicaId).toBe('a1');
    const health = await fetch(handle.url.replace('/mcp', '/health'));
    expect(health.status).toBe(200);
    expect(health.headers.get('x-switchboard-replica')).toBe('a1');
    expect(await health.json()).toMatchObject({
      status: 'ok',
      replica: 'a1',
      name: 'echo-fixture',
      tools: 3,
    });
    const ready = await fetch(handle.url.replace('/mcp', '/ready'));
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', replica: 'a1' });
    const missing = await fetch(handle.url.replace('/mcp', '/nothing'));
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-switchboard-replica')).toBe('a1');
    const call = await rawPost(handle.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(call.headers['x-switchboard-replica']).toBe('a1');
  });

  test('/ready is 503 naming a further dependency while its check fails or hangs, 200 once it passes', async () => {
    let state: 'down' | 'hung' | 'up' = 'down';
    const handle = await start({
      readinessChecks: [
        {
          name: 'registry store',
          check: () =>
            state === 'up'
              ? Promise.resolve()
              : state === 'hung'
                ? new Promise<void>(() => {})
                : Promise.reject(new Error('postgres://switchboard@127.0.0.1:1/db refused the connection')),
        },
      ],
    });
    const readyUrl = handle.url.replace('/mcp', '/ready');
    const down = await fetch(readyUrl);
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('1');
    expect(await down.json()).toEqual({
      status: 'unavailable',
      replica: 'a1',
      message: 'registry store unreachable: postgres://switchboard@127.0.0.1:1/db refused the connection',
    });
    state = 'hung';
    const hung = await fetch(readyUrl);
    expect(hung.status).toBe(503);
    expect(((await hung.json()) as { message: string }).message).toBe(
      'registry store unreachable: no answer within 1000 ms',
    );
    state = 'up';
    expect((await fetch(readyUrl)).status).toBe(200);
    // Liveness does not depend on it: a replica whose database is down is alive, just not ready.
    state = 'down';
    expect((await fetch(handle.url.replace('/mcp', '/health'))).status).toBe(200);
  });

  test("without a replica id no header is sent (today's responses)", async () => {
    const handle = await serve(createEchoServer(), { transport: { type: 'http', port: 0 } });
    cleanups.push(() => handle.close());
    const health = await fetch((handle.url as string).replace('/mcp', '/health'));
    expect(health.headers.get('x-switchboard-replica')).toBeNull();
    expect(await health.json()).not.toHaveProperty('replica');
  });

  test('drain: the listener closes at once, the call in flight completes with Connection: close, then drain resolves', async () => {
    const handle = await start({ json: true });
    const sleeping = waitForEvent(echoServerEvents, 'sleep-started', { what: 'the sleep call to start' });
    const slow = rawPost(handle.url, {
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/call',
      params: { name: 'sleep', arguments: { ms: 600 } },
    });
    await sleeping;
    let drained = false;
    const draining = (handle.drain as () => Promise<void>)().then(() => {
      drained = true;
    });
    // New connections are refused while the call is still running.
    expect(await canConnect(handle.url)).toBe(false);
    expect(drained).toBe(false);
    const answer = await slow;
    expect(JSON.parse(answer.body)).toMatchObject({ id: 9, result: { content: [{ text: 'slept 600' }] } });
    expect(answer.headers.connection).toBe('close');
    await draining;
    expect(drained).toBe(true);
  });

  test('drain ends 2026-07-28 subscriptions/listen streams instead of waiting for them', async () => {
    const handle = await start({ drainTimeoutMs: 60_000 });
    const listen = await fetch(handle.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'subscriptions/listen',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'listen-1',
        method: 'subscriptions/listen',
        params: { notifications: { toolsListChanged: true }, _meta: envelope() },
      }),
    });
    expect(listen.status).toBe(200);
    const reading = listen.text();
    const started = Date.now();
    await (handle.drain as () => Promise<void>)();
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(await reading).toContain('subscriptions/acknowledged');
  });

  test('drain is bounded by drainTimeoutMs', async () => {
    const handle = await start({ json: true, drainTimeoutMs: 200 });
    const sleeping = waitForEvent(echoServerEvents, 'sleep-started', { what: 'the sleep call to start' });
    const slow = rawPost(handle.url, {
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/call',
      params: { name: 'sleep', arguments: { ms: 5000 } },
    }).catch(() => undefined);
    await sleeping;
    const started = Date.now();
    await (handle.drain as () => Promise<void>)();
    expect(Date.now() - started).toBeLessThan(4000);
    await handle.close();
    await slow;
  });

  test('bad replica options are refused with a clear error', async () => {
    const server = createEchoServer();
    await expect(
      serve(server, { transport: { type: 'http', port: 0, replicaId: 'has space' } }),
    ).rejects.toThrow(/replicaId must be 1-64 letters/);
    await expect(
      serve(server, { transport: { type: 'http', port: 0, rateLimit: { callsPerMinute: 0 } } }),
    ).rejects.toThrow(/rateLimit.callsPerMinute must be a positive integer/);
    await expect(
      serve(server, {
        transport: {
          type: 'http',
          port: 0,
          auth: { type: 'bearer', tokens: [{ token: '', principal: 'x' }] },
        },
      }),
    ).rejects.toThrow(/tokens: \[\{ token, principal \}/);
    await expect(
      serve(server, { transport: { type: 'http', port: 0, session: true, sessionKeys: [randomBytes(8)] } }),
    ).rejects.toThrow(/has 8 bytes/);
    await expect(
      serve(server, { transport: { type: 'http', port: 0, sessionKeys: [randomBytes(32)] } }),
    ).rejects.toThrow(/sessionKeys .* need session: true/);
  });
});

describe('sealed sessions in one process (in-memory cluster state)', () => {
  test('several bearer tokens: the session is bound to its principal; DELETE revokes the sealed id', async () => {
    const handle = await start({
      session: true,
      sessionKeys: [randomBytes(32)],
      cluster: createMemoryClusterState({ replicaId: 'a1' }),
      auth: {
        type: 'bearer',
        token: 'legacy-single-token',
        tokens: [
          { token: 'token-a', principal: 'alice' },
          { token: 'token-b', principal: 'bob' },
        ],
      },
    });
    const asA = { authorization: 'Bearer token-a' };
    const id = await openSession(handle.url, asA);
    expect((await sessionRequest(handle.url, id, 'tools/list', {}, asA)).status).toBe(200);
    expect(
      (await sessionRequest(handle.url, id, 'tools/list', {}, { authorization: 'Bearer token-b' })).status,
    ).toBe(404);
    expect(
      (
        await sessionRequest(
          handle.url,
          id,
          'tools/list',
          {},
          { authorization: 'Bearer legacy-single-token' },
        )
      ).status,
    ).toBe(404);
    expect(
      (await sessionRequest(handle.url, id, 'tools/list', {}, { authorization: 'Bearer nope' })).status,
    ).toBe(401);
    // The single-token form still works alongside.
    const single = await openSession(handle.url, { authorization: 'Bearer legacy-single-token' });
    expect(
      (
        await sessionRequest(
          handle.url,
          single,
          'tools/list',
          {},
          { authorization: 'Bearer legacy-single-token' },
        )
      ).status,
    ).toBe(200);
    const deleted = await fetch(handle.url, { method: 'DELETE', headers: sessionHeaders(id, asA) });
    expect(deleted.status).toBe(200);
    // The sealed id would still open: the revocation is what refuses it.
    expect((await sessionRequest(handle.url, id, 'tools/list', {}, asA)).status).toBe(404);
  });

  test('500 sessions that never DELETE are swept after the idle timeout', async () => {
    const handle = await start({ session: true, sessionKeys: [randomBytes(32)], sessionIdleTimeoutMs: 300 });
    for (let batch = 0; batch < 10; batch += 1)
      await Promise.all(Array.from({ length: 50 }, () => openSession(handle.url)));
    const sessions = async () =>
      ((await (await fetch(handle.url.replace('/mcp', '/health'))).json()) as { sessions: number }).sessions;
    expect(await sessions()).toBeGreaterThan(0);
    await expect.poll(sessions, { timeout: 15_000, interval: 100 }).toBe(0);
  });
});
