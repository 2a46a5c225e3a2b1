/**
 * The bench's floor: a bare `node:http` server that reads the body, parses it and answers the
 * echo as one JSON-RPC result, with no MCP checks at all. What `node:http` itself costs per
 * round trip; no MCP server over HTTP can be cheaper. `node --import tsx floor-server.ts <port>`.
 */
import { createServer } from 'node:http';

const headers = ['content-type', 'application/json'];

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = chunks.length > 0 ? Buffer.concat(chunks).toString('utf8') : '';
    if (request.method !== 'POST' || body === '') {
      response.writeHead(405).end();
      return;
    }
    const message = JSON.parse(body) as { id?: unknown; params?: { arguments?: { message?: string } } };
    if (message.id === undefined) {
      response.writeHead(202).end();
      return;
    }
    const text = JSON.stringify({
      jsonrpc: '2.0',
      id: message.id,
      result: { content: [{ type: 'text', text: `Echo: ${message.params?.arguments?.message ?? ''}` }] },
    });
    response.writeHead(200, [...headers, 'content-length', String(Buffer.byteLength(text))]);
    response.end(text);
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1');
