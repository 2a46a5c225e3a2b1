import { Agent, request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, expect, test } from 'vitest';
import { serve } from '../src/index.js';
import { createEchoServer } from './fixtures/echo-server.js';

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

test('1,000 concurrent tool calls over HTTP (raw keep-alive posts): every one answered correctly', async () => {
  const handle = await serve(createEchoServer(), { transport: { type: 'http', port: 0, json: true } });
  cleanups.push(() => handle.close());
  const agent = new Agent({ keepAlive: true, maxSockets: 1000 });
  cleanups.push(() => agent.destroy());
  const url = new URL(handle.url as string);
  const calls = Array.from({ length: 1000 }, (_, index) =>
    new Promise<{ id: number; text: string }>((resolve, reject) => {
      const request = httpRequest(
        {
          agent,
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        },
        (response) => {
          let body = '';
          response.on('data', (chunk: Buffer) => {
            body += chunk.toString();
          });
          response.on('end', () => {
            const message = JSON.parse(body) as { id: number; result: { content: Array<{ text: string }> } };
            resolve({ id: message.id, text: message.result.content[0]?.text ?? '' });
          });
        },
      );
      request.on('error', reject);
      // The same id on every call: answers must still go to the right request.
      request.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'add', arguments: { a: index, b: 1000 } },
        }),
      );
    }).then((answer) => ({ ...answer, index })),
  );
  const answers = await Promise.all(calls);
  expect(answers).toHaveLength(1000);
  for (const answer of answers) {
    expect(answer.id).toBe(1);
    expect(answer.text).toBe(String(answer.index + 1000));
  }
}, 120_000);

test('1,000 concurrent tool calls through one SDK client in session mode: none lost', async () => {
  const handle = await serve(createEchoServer(), { transport: { type: 'http', port: 0, session: true } });
  cleanups.push(() => handle.close());
  const client = new Client({ name: 'load', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(handle.url as string)));
  cleanups.push(() => client.close());
  const results = await Promise.all(
    Array.from({ length: 1000 }, (_, index) =>
      client.callTool({ name: 'echo', arguments: { message: `m${index}` } }),
    ),
  );
  results.forEach((result, index) => {
    expect(result.content).toEqual([{ type: 'text', text: `Echo: m${index}` }]);
  });
}, 180_000);
