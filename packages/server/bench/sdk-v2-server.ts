/**
 * The bench's 2026-07-28 reference: the official SDK v2 (`createMcpHandler` with an `McpServer`
 * per request, as its docs serve it) with the same `echo` tool, wrapped for `node:http` (the SDK's
 * handler is web-standard: a `Request` in, a `Response` out). `node --import tsx sdk-v2-server.ts <port>`.
 */
import { createServer } from 'node:http';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

const handler = createMcpHandler(
  () => {
    const server = new McpServer({ name: 'bench-echo-sdk-v2', version: '1.0.0' });
    server.registerTool(
      'echo',
      {
        description: 'Echoes back the input',
        inputSchema: z.object({ message: z.string().describe('Message to echo') }),
      },
      async ({ message }) => ({ content: [{ type: 'text', text: `Echo: ${message}` }] }),
    );
    return server;
  },
  { responseMode: 'json' },
);

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', async () => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string') headers.set(name, value);
    }
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const answer = await handler.fetch(
      new Request(`http://${request.headers.host ?? '127.0.0.1'}${request.url ?? '/'}`, {
        method: request.method ?? 'GET',
        headers,
        ...(body !== undefined && request.method !== 'GET' ? { body } : {}),
      }),
    );
    const text = Buffer.from(await answer.arrayBuffer());
    const out: string[] = [];
    answer.headers.forEach((value, name) => {
      out.push(name, value);
    });
    response.writeHead(answer.status, out);
    response.end(text);
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1');
