/** The bench's minimal keep-alive JSON-RPC client over HTTP (no SDK, so only the server is measured). */
import { Agent, request as httpRequest } from 'node:http';

/** The `_meta` envelope of the bench's 2026-07-28 requests. */
export const modernEnvelope = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
};

/**
 * A minimal keep-alive JSON-RPC poster; reads JSON or SSE answers. `era: 'modern'` posts
 * 2026-07-28 requests (envelope in `_meta`, `Mcp-Method` / `Mcp-Name` headers).
 */
export function createHttpPoster(url: string, era: 'legacy' | 'modern' = 'legacy') {
  const target = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let sessionId: string | undefined;
  let nextId = 1;
  const post = (message: Record<string, unknown>): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const params = message.params as { name?: string } | undefined;
      const sent =
        era === 'modern' && params !== undefined
          ? { ...message, params: { ...params, _meta: modernEnvelope } }
          : message;
      const body = JSON.stringify(sent);
      const headers: Record<string, string | number> = {
        'content-type': 'application/json',
        accept: era === 'modern' ? 'application/json' : 'application/json, text/event-stream',
        'content-length': Buffer.byteLength(body),
        'mcp-protocol-version': era === 'modern' ? '2026-07-28' : '2025-06-18',
      };
      if (era === 'modern') {
        headers['mcp-method'] = String(message.method);
        if (params?.name !== undefined) headers['mcp-name'] = params.name;
      }
      if (sessionId) headers['mcp-session-id'] = sessionId;
      const request = httpRequest(
        { agent, host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers },
        (response) => {
          const id = response.headers['mcp-session-id'];
          if (typeof id === 'string') sessionId = id;
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            text += chunk;
          });
          response.on('end', () => {
            if (!('id' in message)) return resolve(undefined);
            const payload = (response.headers['content-type'] ?? '').includes('text/event-stream')
              ? text
                  .split('\n')
                  .filter((line) => line.startsWith('data: '))
                  .map((line) => line.slice(6))
                  .find((data) => data.includes('"result"') || data.includes('"error"'))
              : text;
            resolve(payload ? JSON.parse(payload) : undefined);
          });
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  return {
    async initialize() {
      await post({
        jsonrpc: '2.0',
        id: nextId++,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'bench', version: '1' },
        },
      });
      await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    },
    async echo(message: string) {
      const answer = (await post({
        jsonrpc: '2.0',
        id: nextId++,
        method: 'tools/call',
        params: { name: 'echo', arguments: { message } },
      })) as { result?: { content: Array<{ text: string }> } };
      if (!answer?.result?.content[0]?.text.includes(message))
        throw new Error(`bad answer ${JSON.stringify(answer)}`);
    },
    close() {
      agent.destroy();
    },
  };
}
