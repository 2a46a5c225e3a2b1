/**
 * The router's shortcut for a plain POST (`RequestRouter#plainPost`): after a request that took
 * it (so the allowed `Host` is remembered), everything the steps refuse is still refused the same
 * way, and what the shortcut leaves to the steps is still served.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type HttpTransportOptions, type ServeHandle, serve } from '../src/index.js';
import { createEchoServer } from './fixtures/echo-server.js';

/** A raw POST (fetch would refuse to set Host). */
function post(
  url: string,
  headers: Record<string, string>,
  body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'echo', arguments: { message: 'hi' } },
  }),
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: 'POST', headers }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

const plain = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function started(options: Partial<HttpTransportOptions>): Promise<ServeHandle & { url: string }> {
  return (await serve(createEchoServer(), {
    transport: { type: 'http', port: 0, json: true, ...options },
  })) as ServeHandle & { url: string };
}

describe('after a plain POST took the shortcut', () => {
  let handle: ServeHandle & { url: string };
  beforeAll(async () => {
    handle = await started({});
    expect((await post(handle.url, plain)).status).toBe(200);
  });
  afterAll(() => handle.close());

  test('another Host is refused (403), and the allowed one still served', async () => {
    const refused = await post(handle.url, { ...plain, host: 'evil.example' });
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('evil.example');
    expect((await post(handle.url, plain)).status).toBe(200);
  });

  test('a browser Origin from elsewhere is refused (403)', async () => {
    expect((await post(handle.url, { ...plain, origin: 'https://evil.example' })).status).toBe(403);
  });

  test('an Accept with neither JSON nor SSE is refused (406); no Accept is served as JSON', async () => {
    expect(
      (await post(handle.url, { 'content-type': 'application/json', accept: 'text/plain' })).status,
    ).toBe(406);
    const noAccept = await post(handle.url, { 'content-type': 'application/json' });
    expect(noAccept.status).toBe(200);
    expect(JSON.parse(noAccept.body)).toMatchObject({ result: { content: [{ text: 'Echo: hi' }] } });
  });

  test('another Content-Type is refused (415); JSON with a charset takes the steps and is served', async () => {
    expect((await post(handle.url, { ...plain, 'content-type': 'text/plain' })).status).toBe(415);
    expect(
      (await post(handle.url, { ...plain, 'content-type': 'application/json; charset=utf-8' })).status,
    ).toBe(200);
  });

  test('another path is 404, and GET on the endpoint 405', async () => {
    expect((await post(handle.url.replace('/mcp', '/other'), plain)).status).toBe(404);
    const get = await new Promise<number>((resolve, reject) => {
      httpRequest(handle.url, { method: 'GET', headers: { accept: 'text/event-stream' } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      })
        .on('error', reject)
        .end();
    });
    expect(get).toBe(405);
  });
});

test('a server that checks a token checks it on every POST, the first accepted one notwithstanding', async () => {
  const handle = await started({ auth: { type: 'bearer', token: 'plain-post-token' } });
  try {
    expect((await post(handle.url, { ...plain, authorization: 'Bearer plain-post-token' })).status).toBe(200);
    expect((await post(handle.url, plain)).status).toBe(401);
  } finally {
    await handle.close();
  }
});
