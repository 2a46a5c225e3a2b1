/**
 * Requests to `switchboard ui` from Node, with exactly the headers a test chooses (node:http sets
 * no Origin and lets Host be overridden): for the security checks (no token, a foreign Origin) and
 * to drive the API directly where a scenario needs many calls (10,000 log entries).
 */
import { request } from 'node:http';
import { openEventStream } from '@switchboard/test-helpers';
import type { UiCall, UiCallRequest, UiCallStarted, UiEvent } from '../src/ui-api.js';
import type { UiProcess } from './ui-process.js';

/** A status and the body as text. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTP request to the UI's origin, `path` including any query. */
export function rawRequest(
  origin: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawAnswer> {
  const target = new URL(path, origin);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      target,
      { method: options.method ?? 'GET', headers: options.headers ?? {}, timeout: 15_000 },
      (incoming) => {
        let body = '';
        incoming.setEncoding('utf8');
        incoming.on('data', (chunk: string) => {
          body += chunk;
        });
        incoming.on('end', () =>
          resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body }),
        );
      },
    );
    outgoing.on('timeout', () =>
      outgoing.destroy(new Error(`${options.method ?? 'GET'} ${target} timed out`)),
    );
    outgoing.on('error', reject);
    if (options.body !== undefined) outgoing.write(options.body);
    outgoing.end();
  });
}

/** A JSON request with the token header, as the page's own code sends it; throws on a non-2xx status. */
export async function apiRequest<T>(ui: UiProcess, method: string, path: string, body?: unknown): Promise<T> {
  const answer = await rawRequest(ui.origin, path, {
    method,
    headers: {
      'X-Switchboard-Token': ui.token,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (answer.status < 200 || answer.status >= 300) {
    throw new Error(`${method} ${path} answered ${answer.status}: ${answer.body}`);
  }
  return (answer.body ? JSON.parse(answer.body) : undefined) as T;
}

/** Starts a call through `POST /api/calls` and waits for its `call-end` event on the live events. */
export async function callThroughApi(
  ui: UiProcess,
  call: UiCallRequest,
  timeoutMs = 30_000,
): Promise<UiCall> {
  // Open before the call starts, so that its end cannot come before anyone listens.
  const events = await openEventStream<UiEvent>(`${ui.origin}/api/events`, {
    'x-switchboard-token': ui.token,
  });
  try {
    const { callId } = await apiRequest<UiCallStarted>(ui, 'POST', '/api/calls', call);
    const end = await events
      .next(
        (event): event is Extract<UiEvent, { type: 'call-end' }> =>
          event.type === 'call-end' && event.call.callId === callId,
        timeoutMs,
      )
      .catch((error: Error) => {
        throw new Error(`call ${callId} (${call.server}/${call.tool}) did not end: ${error.message}`);
      });
    return end.call;
  } finally {
    events.close();
  }
}
