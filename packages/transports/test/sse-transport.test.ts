import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/client';
import { SwitchboardError } from '@switchboard/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createSseTransport } from '../src/index.js';
import { freePort } from './support/server-everything.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

describe('legacy SSE transport', () => {
  it('sends static headers and the bearer token on the event stream and on every POST', async () => {
    const seen: Array<{ method: string; authorization?: string | undefined; team?: string | undefined }> = [];
    let stream: http.ServerResponse | undefined;
    // A minimal legacy HTTP+SSE neighbour: the endpoint event, then answers on the stream.
    const server = http.createServer((request, response) => {
      seen.push({
        method: request.method ?? '',
        authorization: request.headers.authorization,
        team: request.headers['x-team'] as string | undefined,
      });
      if (request.method === 'GET') {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write('event: endpoint\ndata: /message?sessionId=abc\n\n');
        stream = response;
        return;
      }
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        response.writeHead(202).end();
        const message = JSON.parse(body) as { id?: number; method: string };
        if (message.id === undefined) return;
        const result =
          message.method === 'initialize'
            ? {
                protocolVersion: '2024-11-05',
                serverInfo: { name: 'legacy', version: '1.0.0' },
                capabilities: {},
              }
            : {};
        stream?.write(
          `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result })}\n\n`,
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    );
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sse`;
    const client = new Client({ name: 'sse-test', version: '1.0.0' });
    await client.connect(
      createSseTransport({ url, headers: { 'X-Team': 'switchboard' }, bearerToken: 'sse-token' }),
    );
    cleanups.push(() => client.close());
    await client.ping();
    expect(seen.map((request) => request.method)).toEqual(['GET', 'POST', 'POST', 'POST']);
    for (const request of seen) {
      expect(request.authorization).toBe('Bearer sse-token');
      expect(request.team).toBe('switchboard');
    }
  });

  it('gives a clear CONNECTION_FAILED error for a refused connection', async () => {
    const port = await freePort();
    const failure = await createSseTransport({ url: `http://127.0.0.1:${port}/sse`, name: 'sse-down' })
      .start()
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(SwitchboardError.hasCode(failure, 'CONNECTION_FAILED')).toBe(true);
    expect((failure as Error).message).toContain('"sse-down"');
  });
});
