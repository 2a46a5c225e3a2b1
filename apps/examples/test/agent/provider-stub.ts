/** A local HTTP server standing in for a model provider's API: records requests, answers from a queue. */
import { createServer, type IncomingMessage } from 'node:http';
import { listenOnRandomPort } from '@switchboard/test-helpers';

/** One request the stub received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

/** A running stub. */
export interface ProviderStub {
  baseUrl: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Starts a stub on port 0 that answers each request with the next of `replies` (status 200 unless given). */
export async function startProviderStub(
  replies: Array<{ status?: number; body: unknown }>,
): Promise<ProviderStub> {
  const requests: RecordedRequest[] = [];
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    request.on('end', () => {
      requests.push({
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: JSON.parse(text || '{}'),
      });
      const reply = replies.shift() ?? { status: 500, body: { error: 'no reply queued' } };
      response.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(reply.body));
    });
  });
  const { origin } = await listenOnRandomPort(server);
  return {
    baseUrl: origin,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
