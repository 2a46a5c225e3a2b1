/**
 * `events/stream` (push delivery): one long-lived request per subscription. The server confirms it
 * with `notifications/events/active {cursor, truncated}`, replays what came after the client's
 * cursor, then sends each new occurrence as `notifications/events/event` and a
 * `notifications/events/heartbeat {cursor}` while idle; every notification carries the request's
 * id as `_meta.subscriptionId`. It ends when the client cancels (its request is aborted), with the
 * empty result.
 */
import { type RequestId, type Result, SUBSCRIPTION_ID_META_KEY } from '@modelcontextprotocol/server';
import type { InboundRequest } from '../request/inbound-request.js';
import type { EventHub } from './event-hub.js';
import type { EventOccurrence } from './event-type.js';
import { argumentsOf, cursorOf, eventTypeOf } from './events-params.js';

function stamp(params: Record<string, unknown>, subscriptionId: RequestId): Record<string, unknown> {
  return { ...params, _meta: { [SUBSCRIPTION_ID_META_KEY]: subscriptionId } };
}

/** Serves one `events/stream` request; resolves when the client ends it. */
export async function streamEvents(
  hub: EventHub,
  request: InboundRequest,
  heartbeatMs: number,
): Promise<Result> {
  // Every check happens before anything is sent: a bad request is a plain error, no stream.
  const type = eventTypeOf(hub, request, 'push');
  const args = argumentsOf(hub, request, type.name);
  const cursor = cursorOf(request);
  const backlog = cursor === null ? undefined : hub.read(type.name, args, cursor, Number.POSITIVE_INFINITY);

  const send = (method: string, params: Record<string, unknown>) =>
    request.channel.notify({ jsonrpc: '2.0', method, params: stamp(params, request.id) });
  let position = cursor ?? hub.headCursor();
  const deliver = (event: EventOccurrence) => {
    position = event.cursor ?? position;
    send('notifications/events/event', { ...event });
  };

  // Replay and listening start in one turn, so nothing emitted in between is lost or repeated.
  send('notifications/events/active', { cursor: position, truncated: backlog?.truncated ?? false });
  for (const event of backlog?.events ?? []) deliver(event);
  if (backlog !== undefined) position = backlog.cursor;
  const stop = hub.watch(type.name, args, deliver);
  const heartbeat = setInterval(
    () => send('notifications/events/heartbeat', { cursor: position }),
    heartbeatMs,
  );
  heartbeat.unref();

  await new Promise<void>((resolve) => {
    const signal = request.abort.signal;
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
  clearInterval(heartbeat);
  stop();
  return { _meta: { [SUBSCRIPTION_ID_META_KEY]: request.id } } as Result;
}
