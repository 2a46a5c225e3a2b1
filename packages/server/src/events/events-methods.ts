/**
 * The routes of the Events extension (SEP-3415) over an event source, served on 2026-07-28 (the
 * extension is defined for that revision on: it relies on per-request capabilities, server/discover
 * and subscriptions/listen): `events/list`, `events/poll`, `events/stream` (events-stream.ts),
 * `events/subscribe` and `events/unsubscribe` (webhooks, where the source offers them).
 */
import type { Result } from '@modelcontextprotocol/server';
import type { MethodRoute } from '../dispatch/method-table.js';
import { ServerError, ServerErrorCode } from '../errors/server-error.js';
import type { InboundRequest } from '../request/inbound-request.js';
import type { EventSource } from './event-source.js';
import { eventRequestOf, positiveIntegerOf, principalOf, webhookDeliveryOf } from './events-params.js';
import { streamEvents } from './events-stream.js';
import { isWebhookSecret } from './webhook-delivery.js';

/** How the methods answer. */
export interface EventsMethodsOptions {
  /** `nextPollMs` of poll results: how long a client waits before polling again. @default 5000 */
  pollIntervalMs?: number;
  /** Most events one poll returns (a client's `maxEvents` may ask fewer). @default 100 */
  maxPollEvents?: number;
  /** How often an idle stream says it is alive (`notifications/events/heartbeat`). @default 15000 */
  heartbeatMs?: number;
}

/** The webhook side of `source`, or the unsupported error. */
function webhooksOf(source: EventSource, request: InboundRequest): NonNullable<EventSource['webhooks']> {
  if (source.webhooks !== undefined) return source.webhooks;
  throw new ServerError({
    code: ServerErrorCode.EventDeliveryUnsupported,
    message: `"${request.method}": this server delivers no events by webhook; use events/poll or events/stream.`,
    data: { mode: 'webhook' },
  });
}

/** The routes of the extension over `source`. */
export function eventsRoutes(
  source: EventSource,
  options: EventsMethodsOptions = {},
): Array<[string, MethodRoute]> {
  const maxPollEvents = options.maxPollEvents ?? 100;
  const pollIntervalMs = options.pollIntervalMs ?? 5000;

  const list = async (): Promise<Result> => ({ events: [...(await source.listEventTypes())] }) as Result;

  const poll = async (request: InboundRequest): Promise<Result> => {
    const subscription = eventRequestOf(request);
    const maxEvents = Math.min(positiveIntegerOf(request, 'maxEvents') ?? maxPollEvents, maxPollEvents);
    const answer = await source.pollEvents({ ...subscription, maxEvents });
    return { ...answer, nextPollMs: answer.nextPollMs ?? (answer.hasMore ? 0 : pollIntervalMs) } as Result;
  };

  const subscribe = async (request: InboundRequest): Promise<Result> => {
    const webhooks = webhooksOf(source, request);
    const subscription = eventRequestOf(request);
    const principal = principalOf(request, webhooks.policy);
    const { url, secret } = webhookDeliveryOf(request, webhooks.policy);
    if (!isWebhookSecret(secret)) {
      throw new ServerError({
        code: ServerErrorCode.InvalidParams,
        message: `Invalid params for "${request.method}": delivery.secret must be a Standard Webhooks secret: "whsec_" and 24 to 64 bytes of base64.`,
      });
    }
    const ttlMs = positiveIntegerOf(request, 'ttlMs');
    return (await webhooks.subscribe({ ...subscription, principal, url, secret, ttlMs })) as Result;
  };

  const unsubscribe = async (request: InboundRequest): Promise<Result> => {
    const webhooks = webhooksOf(source, request);
    const { name, arguments: args } = eventRequestOf(request);
    const principal = principalOf(request, webhooks.policy);
    const { url } = webhookDeliveryOf(request, webhooks.policy);
    await webhooks.unsubscribe({ name, arguments: args, principal, url });
    return {} as Result;
  };

  const modern = { legacy: false, modern: true } as const;
  return [
    ['events/list', { ...modern, handle: list }],
    ['events/poll', { ...modern, handle: poll }],
    [
      'events/stream',
      { ...modern, handle: (request) => streamEvents(source, request, options.heartbeatMs ?? 15_000) },
    ],
    ['events/subscribe', { ...modern, handle: subscribe }],
    ['events/unsubscribe', { ...modern, handle: unsubscribe }],
  ];
}
