/**
 * `events/stream` (push delivery): one long-lived request per subscription. The source confirms it
 * (`notifications/events/active {cursor, truncated}`), then each occurrence goes out as
 * `notifications/events/event`, and while idle a `notifications/events/heartbeat {cursor}` says
 * the stream is alive; every notification carries the request's id as `_meta.subscriptionId`. It
 * ends when the client cancels (its request is aborted), with the empty result.
 */
import { type Result, SUBSCRIPTION_ID_META_KEY } from '@modelcontextprotocol/server';
import type { InboundRequest } from '../request/inbound-request.js';
import type { EventSource } from './event-source.js';
import { eventRequestOf } from './events-params.js';

/** Serves one `events/stream` request over `source`; resolves when it ends. */
export async function streamEvents(
  source: EventSource,
  request: InboundRequest,
  heartbeatMs: number,
): Promise<Result> {
  const subscription = eventRequestOf(request);
  const meta = { [SUBSCRIPTION_ID_META_KEY]: request.id };
  const send = (method: string, params: Record<string, unknown>) =>
    request.channel.notify({ jsonrpc: '2.0', method, params: { ...params, _meta: meta } });
  let position: string | null = subscription.cursor;
  let heartbeat: NodeJS.Timeout | undefined;
  try {
    await source.streamEvents(
      subscription,
      {
        active: (info) => {
          position = info.cursor;
          send('notifications/events/active', { cursor: info.cursor, truncated: info.truncated });
          heartbeat ??= setInterval(
            () => send('notifications/events/heartbeat', { cursor: position }),
            heartbeatMs,
          );
          heartbeat.unref();
        },
        event: (event) => {
          position = event.cursor ?? position;
          send('notifications/events/event', { ...event });
        },
      },
      request.abort.signal,
    );
  } finally {
    clearInterval(heartbeat);
  }
  return { _meta: meta } as Result;
}
