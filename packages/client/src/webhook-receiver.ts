/**
 * `createWebhookReceiver`: a local HTTP endpoint for Events webhook deliveries. It answers the
 * server's signed verification challenge, verifies every delivery (`verifyWebhookDelivery`: a
 * tampered or stale one is answered 401 and reported to `onRejected` with its coded error, never
 * to `onEvent`), drops a retry of an event it already took (same `webhook-id`), and keeps the last
 * event's cursor so a new subscription can resume from it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ClientError, ClientErrorCode } from './client-error.js';
import type { EventOccurrence } from './events-client.js';
import { verifyWebhookDelivery } from './webhook-verification.js';

/** Options of {@link createWebhookReceiver}. */
export interface WebhookReceiverOptions {
  /** The subscription's secret (`whsec_…`); the same one is given to `subscribe`. */
  secret: string;
  /** Each verified event, once, in arrival order (a throw answers 500, so the server retries). */
  onEvent(event: EventOccurrence, subscriptionId: string | undefined): void | Promise<void>;
  /** Each refused delivery, with its `ClientError` (`WEBHOOK_SIGNATURE_INVALID`, `WEBHOOK_TIMESTAMP_EXPIRED`). @default ignored */
  onRejected?(error: ClientError): void;
  /** Port to listen on. @default 0 (any free port) */
  port?: number;
  /** Interface to listen on. @default '127.0.0.1' */
  host?: string;
  /** Largest accepted distance of a delivery's timestamp from now. @default 300 */
  toleranceSeconds?: number;
  /** Largest accepted body. @default 1 MiB */
  maxBodyBytes?: number;
}

/** A listening receiver. */
export interface WebhookReceiver {
  /** Its URL (give it to `subscribe` as `url`). */
  readonly url: string;
  /** The cursor of the last event taken: subscribe (or poll) from it to resume. */
  readonly cursor: string | null;
  /** Stops listening. */
  close(): Promise<void>;
}

/** How many recent `webhook-id`s are remembered to drop retries of events already taken. */
const rememberedIds = 1000;

function readBody(request: IncomingMessage, limit: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        resolve(undefined);
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** Starts a webhook receiver. */
export async function createWebhookReceiver(options: WebhookReceiverOptions): Promise<WebhookReceiver> {
  const seen = new Set<string>();
  let cursor: string | null = null;

  const answer = (response: ServerResponse, status: number, body?: unknown) => {
    response.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
    response.end(body === undefined ? undefined : JSON.stringify(body));
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (request.method !== 'POST') return answer(response, 405);
    const body = await readBody(request, options.maxBodyBytes ?? 1024 * 1024);
    if (body === undefined) return answer(response, 413);
    let verified: ReturnType<typeof verifyWebhookDelivery>;
    try {
      verified = verifyWebhookDelivery(body, request.headers, {
        secret: options.secret,
        ...(options.toleranceSeconds !== undefined ? { toleranceSeconds: options.toleranceSeconds } : {}),
      });
    } catch (error) {
      const refused =
        error instanceof ClientError
          ? error
          : new ClientError({ code: ClientErrorCode.WebhookSignatureInvalid, message: String(error) });
      options.onRejected?.(refused);
      return answer(response, 401, { error: refused.code });
    }
    if (verified.body.type === 'verification') {
      return answer(response, 200, { challenge: verified.body.challenge });
    }
    // Control envelopes (`gap`, `terminated`) carry no event.
    if (typeof verified.body.type === 'string') return answer(response, 204);
    if (seen.has(verified.webhookId)) return answer(response, 204);
    const event: EventOccurrence = {
      eventId: String(verified.body.eventId),
      name: String(verified.body.name),
      timestamp: String(verified.body.timestamp),
      data: verified.body.data,
      cursor: typeof verified.body.cursor === 'string' ? verified.body.cursor : null,
    };
    try {
      await options.onEvent(event, verified.subscriptionId);
    } catch {
      return answer(response, 500);
    }
    seen.add(verified.webhookId);
    if (seen.size > rememberedIds) seen.delete(seen.values().next().value as string);
    cursor = event.cursor ?? cursor;
    return answer(response, 204);
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) answer(response, 500);
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/`,
    get cursor() {
      return cursor;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
