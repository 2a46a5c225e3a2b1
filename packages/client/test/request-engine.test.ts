// The request engine on its own, over the in-memory linked pair (the other end is the test, speaking
// JSON-RPC by hand): one table of pending requests settled by id, progress to its request (and its
// deadline restarted), deadlines and aborts that tell the server, a closed connection failing
// what is pending, and server requests answered with the handlers of the call they belong to.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { JSONRPCMessage, JSONRPCRequest, Transport } from '@modelcontextprotocol/client';
import { createInMemoryTransportPair } from '@switchboard/transports';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RequestEngine, type RequestEngineOptions } from '../src/request-engine.js';

const open: Transport[] = [];
afterEach(async () => {
  for (const transport of open.splice(0)) await transport.close().catch(() => {});
});

/** An engine on one end of a linked pair; the other end (the "server") records what arrives. */
async function linked(options: Partial<RequestEngineOptions> = {}) {
  const [client, server] = createInMemoryTransportPair();
  open.push(client, server);
  const received: JSONRPCMessage[] = [];
  const waiting = new Set<() => void>();
  server.onmessage = (message) => {
    received.push(message);
    for (const wake of [...waiting]) wake();
  };
  const events = { closed: 0, errors: [] as string[] };
  const engine = new RequestEngine({
    transport: client,
    serveRequest: async () => ({}),
    onNotification: () => {},
    onClose: () => events.closed++,
    onError: (error) => events.errors.push(error.message),
    ...options,
  });
  await engine.start();
  await server.start();
  /** The first message that `matches` (taken out of what arrived), waiting for it if it has not come yet. */
  const take = (matches: (message: JSONRPCMessage) => boolean) =>
    new Promise<JSONRPCMessage>((resolve) => {
      const look = (): boolean => {
        const found = received.find(matches);
        if (found === undefined) return false;
        received.splice(received.indexOf(found), 1);
        waiting.delete(wake);
        resolve(found);
        return true;
      };
      const wake = () => void look();
      if (!look()) waiting.add(wake);
    });
  const next = async (method: string) =>
    (await take((message) => 'method' in message && message.method === method)) as JSONRPCRequest;
  const answerTo = (id: unknown) =>
    take((message) => !('method' in message) && 'id' in message && message.id === id);
  const send = (message: Record<string, unknown>) =>
    server.send({ jsonrpc: '2.0', ...message } as JSONRPCMessage);
  return { engine, server, next, answerTo, send, events };
}

describe('the request engine', () => {
  it('settles each request by its id, in any order, and reports an answer nobody asked for', async () => {
    const { engine, next, send, events } = await linked();
    const first = engine.request('tools/call', { name: 'a' }, { timeoutMs: 5000 });
    const second = engine.request('tools/call', { name: 'b' }, { timeoutMs: 5000 });
    const a = await next('tools/call');
    const b = await next('tools/call');
    expect(typeof a.id).toBe('number');
    expect(b.id).toBe((a.id as number) + 1);
    await send({ id: b.id, result: { content: 'b' } });
    await send({ id: a.id, error: { code: -32602, message: 'no a' } });
    expect(await second).toEqual({ content: 'b' });
    await expect(first).rejects.toMatchObject({ code: -32602 });
    await send({ id: 999, result: {} });
    expect(events.errors.some((message) => message.includes('unknown request id 999'))).toBe(true);
  });

  it('hands progress to its request, whose deadline each update restarts when asked', async () => {
    // The deadline is time itself: a fake clock moves it exactly, without waiting it out.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const { engine, next, send } = await linked();
      const progress: unknown[] = [];
      const call = engine.request(
        'tools/call',
        { name: 'slow' },
        { timeoutMs: 2000, resetTimeoutOnProgress: true, onProgress: (update) => progress.push(update) },
      );
      const request = await next('tools/call');
      const token = (request.params?._meta as { progressToken?: unknown } | undefined)?.progressToken;
      expect(token).toBe(request.id);
      // Three updates 800 ms apart outlast the 2 s deadline only because each restarts it.
      for (let step = 1; step <= 3; step++) {
        await vi.advanceTimersByTimeAsync(800);
        await send({ method: 'notifications/progress', params: { progressToken: token, progress: step } });
      }
      await send({ id: request.id, result: { done: true } });
      expect(await call).toEqual({ done: true });
      expect(progress).toEqual([1, 2, 3].map((step) => ({ progress: step })));
    } finally {
      vi.useRealTimers();
    }
  });

  it('a deadline or an abort rejects the request and tells the server which one', async () => {
    const { engine, next } = await linked();
    await expect(engine.request('tools/call', { name: 'late' }, { timeoutMs: 50 })).rejects.toMatchObject({
      code: 'REQUEST_TIMEOUT',
      data: { timeout: 50 },
    });
    const late = await next('tools/call');
    expect((await next('notifications/cancelled')).params).toMatchObject({ requestId: late.id });
    const abort = new AbortController();
    const aborted = engine.request(
      'tools/call',
      { name: 'stopped' },
      { timeoutMs: 5000, signal: abort.signal },
    );
    const stopped = await next('tools/call');
    abort.abort('the user stopped');
    await expect(aborted).rejects.toThrow(/the user stopped/);
    expect((await next('notifications/cancelled')).params).toMatchObject({ requestId: stopped.id });
  });

  it('keeps each request to its own deadline: a shorter one sent later still ends first', async () => {
    const { engine, next, send } = await linked();
    // One timer serves every deadline (request-deadlines.ts): it must move for an earlier one.
    const long = engine.request('tools/call', { name: 'long' }, { timeoutMs: 30_000 });
    const longSent = await next('tools/call');
    const short = engine.request('tools/call', { name: 'short' }, { timeoutMs: 50 });
    await expect(short).rejects.toMatchObject({ code: 'REQUEST_TIMEOUT', data: { timeout: 50 } });
    // The long request is still pending, and its answer settles it.
    await send({ id: longSent.id, result: { content: [] } });
    await expect(long).resolves.toEqual({ content: [] });
  }, 10_000);

  it('an answered request leaves no timer holding the process open', async () => {
    // A script that sends a request without a deadline and one with a one-minute deadline, answers
    // them, and then has nothing left to do: it must exit on its own, not a minute later.
    const script = `
      import { createInMemoryTransportPair } from '@switchboard/transports';
      import { RequestEngine } from ${JSON.stringify(join(import.meta.dirname, '../src/request-engine.ts'))};
      const [client, server] = createInMemoryTransportPair();
      server.onmessage = (message) => void server.send({ jsonrpc: '2.0', id: message.id, result: { ok: true } });
      const engine = new RequestEngine({ transport: client, serveRequest: async () => ({}),
        onNotification() {}, onClose() {}, onError() {} });
      await engine.start();
      await server.start();
      // A request without a deadline first: it must not leave the timer holding on either.
      await engine.request('ping', undefined, { timeoutMs: Number.POSITIVE_INFINITY });
      const result = await engine.request('ping', undefined, { timeoutMs: 60_000 });
      process.stdout.write(JSON.stringify(result));
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: join(import.meta.dirname, '..'),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += String(chunk);
    });
    const exited = await new Promise<number | null>((resolve) => {
      const stop = setTimeout(() => {
        child.kill('SIGKILL');
        resolve(-1);
      }, 30_000);
      child.once('exit', (code) => {
        clearTimeout(stop);
        resolve(code);
      });
    });
    expect(output).toBe('{"ok":true}');
    expect(exited).toBe(0);
  }, 40_000);

  it('fails every pending request when the connection closes, and tells its owner once', async () => {
    const { engine, server, next, events } = await linked();
    const pending = engine.request('tools/call', { name: 'never' }, { timeoutMs: 5000 });
    await next('tools/call');
    await server.close();
    await expect(pending).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    expect(events.closed).toBe(1);
    await expect(engine.request('ping', undefined, { timeoutMs: 5000 })).rejects.toMatchObject({
      code: 'NOT_CONNECTED',
    });
  });

  it('answers ping itself, and a server request with the handlers of the one call of its own in flight', async () => {
    const served: Array<{ method: string; tool: string | undefined }> = [];
    const { engine, next, answerTo, send } = await linked({
      serveRequest: async (method, _params, owner) => {
        served.push({ method, tool: owner?.tool });
        return { action: 'accept', content: {} };
      },
    });
    const call = engine.request(
      'tools/call',
      { name: 'confirm' },
      {
        timeoutMs: 5000,
        owner: { tool: 'confirm', handlers: { onElicitation: () => ({ action: 'decline' }) } },
      },
    );
    const request = await next('tools/call');
    await send({ id: 'ping-1', method: 'ping' });
    await send({ id: 7, method: 'elicitation/create', params: { message: 'ok?', requestedSchema: {} } });
    expect(await answerTo('ping-1')).toMatchObject({ result: {} });
    expect(await answerTo(7)).toMatchObject({ result: { action: 'accept' } });
    expect(served).toEqual([{ method: 'elicitation/create', tool: 'confirm' }]);
    await send({ id: request.id, result: {} });
    await call;
    // With no call of its own in flight, a server request is the client's to answer.
    await send({ id: 8, method: 'elicitation/create', params: { message: 'again?', requestedSchema: {} } });
    expect(await answerTo(8)).toMatchObject({ result: { action: 'accept' } });
    expect(served.at(-1)).toEqual({ method: 'elicitation/create', tool: undefined });
  });
});
