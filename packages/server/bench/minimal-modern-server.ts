/**
 * The bench's second floor for 2026-07-28: a bare `node:http` server doing only what a minimal
 * correct 2026-07-28 server must do for the echo call, and nothing an SDK would add: the body
 * read and parsed once; the `Content-Type` and `Accept` of a POST; the standard headers checked
 * against the body (`MCP-Protocol-Version` present and equal to the envelope's revision,
 * `Mcp-Method` equal to the method, `Mcp-Name` equal to the tool's name: SEP-2243); the envelope's
 * required keys (protocol version, client capabilities); the tool's one argument checked against
 * its schema (a string); and the answer in the revision's shape (`resultType`, which the revision
 * requires, and the server's identity in `_meta`, which it says a server SHOULD send). Anything
 * else is refused with a bare 400. No Host check, no rate limit, no telemetry, no drain.
 * `node --import tsx minimal-modern-server.ts <port>`.
 */
import { createServer } from 'node:http';

const serverInfo = { name: 'bench-minimal', version: '1.0.0' };
const versionKey = 'io.modelcontextprotocol/protocolVersion';
const capabilitiesKey = 'io.modelcontextprotocol/clientCapabilities';

interface EchoCall {
  id?: string | number;
  method?: string;
  params?: { name?: unknown; arguments?: { message?: unknown }; _meta?: Record<string, unknown> };
}

function refuse(response: import('node:http').ServerResponse, status: number) {
  response.writeHead(status).end();
}

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const headers = request.headers;
    if (request.method !== 'POST' || !headers['content-type']?.startsWith('application/json'))
      return refuse(response, 415);
    if (!headers.accept?.includes('application/json')) return refuse(response, 406);
    let message: EchoCall;
    try {
      message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as EchoCall;
    } catch {
      return refuse(response, 400);
    }
    if (message.id === undefined) return refuse(response, 202);
    const meta = message.params?._meta;
    const version = headers['mcp-protocol-version'];
    if (meta === undefined || meta[versionKey] !== '2026-07-28' || version !== meta[versionKey])
      return refuse(response, 400);
    if (typeof meta[capabilitiesKey] !== 'object') return refuse(response, 400);
    if (headers['mcp-method'] !== message.method || message.method !== 'tools/call')
      return refuse(response, 400);
    if (headers['mcp-name'] !== message.params?.name || message.params?.name !== 'echo')
      return refuse(response, 400);
    const text = message.params?.arguments?.message;
    if (typeof text !== 'string') return refuse(response, 400);
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: message.id,
      result: {
        content: [{ type: 'text', text: `Echo: ${text}` }],
        resultType: 'complete',
        _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo },
      },
    });
    response.writeHead(200, [
      'content-type',
      'application/json',
      'content-length',
      String(Buffer.byteLength(body)),
    ]);
    response.end(body);
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1');
