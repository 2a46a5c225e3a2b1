/**
 * The routes of the Events extension (SEP-3415) over an event hub, served on 2026-07-28 (the
 * extension is defined for that revision on: it relies on per-request capabilities, server/discover
 * and subscriptions/listen): `events/list`, `events/poll`, `events/stream` (see events-stream.ts),
 * `events/subscribe` and `events/unsubscribe` (webhooks).
 */
import type { Result } from '@modelcontextprotocol/server';
import type { MethodRoute } from '../dispatch/method-table.js';
import { ServerError, ServerErrorCode } from '../errors/server-error.js';
import type { InboundRequest } from '../request/inbound-request.js';
import { defaultAllowCallback } from './callback-url-policy.js';
import { type EventHub, replayPosition } from './event-hub.js';
import { argumentsOf, cursorOf, eventTypeOf, positiveIntegerOf, principalOf } from './events-params.js';
import { streamEvents } from './events-stream.js';
import { isWebhookSecret } from './webhook-delivery.js';

/** How the methods answer. */
export interface EventsMethodsOptions {
  /** `nextPollMs` of poll results: how long a client waits before polling again. @default 5000 */
  pollIntervalMs?: number;
  /** Most events one poll returns (a client's `maxEvents` may ask fewer). @default 100 */
  maxPollEvents?: number;
  /** How often a stream says it is alive (`notifications/events/heartbeat`). @default 15000 */
  heartbeatMs?: number;
}

function invalid(method: string, message: string): ServerError {
  return new ServerError({
    code: ServerErrorCode.InvalidParams,
    message: `Invalid params for "${method}": ${message}`,
  });
}

/** The webhook `delivery` object of a subscribe or unsubscribe: its URL (checked), and secret. */
function deliveryOf(hub: EventHub, request: InboundRequest): { url: string; secret: unknown } {
  const delivery = request.params?.delivery as Record<string, unknown> | undefined;
  if (typeof delivery !== 'object' || delivery === null || delivery.mode !== 'webhook') {
    throw invalid(request.method, 'delivery must be { mode: "webhook", url, secret }.');
  }
  let url: URL;
  try {
    url = new URL(String(delivery.url));
  } catch {
    throw invalid(request.method, 'delivery.url must be an absolute https URL.');
  }
  const allow = hub.webhooks.options.allowCallback ?? defaultAllowCallback;
  if (!allow(url)) {
    throw invalid(
      request.method,
      'delivery.url is not an allowed callback: it must be https and not a loopback or private address.',
    );
  }
  return { url: url.href, secret: delivery.secret };
}

/** The routes of the extension over `hub`. */
export function eventsRoutes(
  hub: EventHub,
  options: EventsMethodsOptions = {},
): Array<[string, MethodRoute]> {
  const maxPollEvents = options.maxPollEvents ?? 100;

  const list = async (): Promise<Result> => ({ events: hub.list() }) as Result;

  const poll = async (request: InboundRequest): Promise<Result> => {
    const type = eventTypeOf(hub, request, 'poll');
    const args = argumentsOf(hub, request, type.name);
    const cursor = cursorOf(request);
    const limit = Math.min(positiveIntegerOf(request, 'maxEvents') ?? maxPollEvents, maxPollEvents);
    const nextPollMs = options.pollIntervalMs ?? 5000;
    // No cursor: the client starts now, so nothing from before is replayed.
    if (cursor === null) {
      return { events: [], cursor: hub.headCursor(), truncated: false, hasMore: false, nextPollMs } as Result;
    }
    const read = hub.read(type.name, args, cursor, limit);
    return { ...read, nextPollMs: read.hasMore ? 0 : nextPollMs } as Result;
  };

  const subscribe = async (request: InboundRequest): Promise<Result> => {
    const type = eventTypeOf(hub, request, 'webhook');
    const args = argumentsOf(hub, request, type.name);
    const principal = principalOf(request, hub.webhooks.options.anonymousPrincipal);
    const { url, secret } = deliveryOf(hub, request);
    if (!isWebhookSecret(secret)) {
      throw invalid(
        request.method,
        'delivery.secret must be a Standard Webhooks secret: "whsec_" and 24 to 64 bytes of base64.',
      );
    }
    const cursor = cursorOf(request);
    const ttlMs = positiveIntegerOf(request, 'ttlMs');
    const outcome = await hub.webhooks.subscribe({
      principal,
      name: type.name,
      args,
      url,
      secret,
      ttlMs,
      fromSeq: cursor === null ? undefined : replayPosition(hub, cursor),
    });
    if ('kind' in outcome) {
      throw outcome.kind === 'exhausted'
        ? new ServerError({
            code: ServerErrorCode.EventsExhausted,
            message: 'The server holds as many webhook subscriptions as it allows; unsubscribe one first.',
          })
        : new ServerError({
            code: ServerErrorCode.WebhookEndpointFailed,
            message: `The callback endpoint failed verification (${outcome.reason}): it must answer the signed verification POST with 2xx and {"challenge": <the same value>}.`,
            data: { reason: outcome.reason },
          });
    }
    return {
      id: outcome.id,
      refreshBefore: new Date(outcome.expiresAt).toISOString(),
      cursor: hub.headCursor(),
    } as Result;
  };

  const unsubscribe = async (request: InboundRequest): Promise<Result> => {
    const type = eventTypeOf(hub, request, 'webhook');
    const args = argumentsOf(hub, request, type.name);
    const principal = principalOf(request, hub.webhooks.options.anonymousPrincipal);
    const { url } = deliveryOf(hub, request);
    if (!hub.webhooks.unsubscribe(principal, type.name, args, url)) {
      throw new ServerError({
        code: ServerErrorCode.EventTypeNotFound,
        message: `No webhook subscription of yours to "${type.name}" with these arguments posts to that URL.`,
        data: { name: type.name },
      });
    }
    return {} as Result;
  };

  const modern = { legacy: false, modern: true } as const;
  return [
    ['events/list', { ...modern, handle: list }],
    ['events/poll', { ...modern, handle: poll }],
    [
      'events/stream',
      { ...modern, handle: (request) => streamEvents(hub, request, options.heartbeatMs ?? 15_000) },
    ],
    ['events/subscribe', { ...modern, handle: subscribe }],
    ['events/unsubscribe', { ...modern, handle: unsubscribe }],
  ];
}
