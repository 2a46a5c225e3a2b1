/**
 * Reading the params of `events/*` requests, whatever source serves them: the event type's name,
 * the subscription arguments (an object), a cursor, counts, the webhook `delivery` (its URL held to
 * the source's callback policy) and who the caller is. Each bad input is a coded `ServerError`
 * saying what to send instead.
 */
import { ServerError, ServerErrorCode } from '../errors/server-error.js';
import type { InboundRequest } from '../request/inbound-request.js';
import { defaultAllowCallback } from './callback-url-policy.js';
import type { EventRequest, WebhookPolicy } from './event-source.js';

function invalid(method: string, message: string): ServerError {
  return new ServerError({
    code: ServerErrorCode.InvalidParams,
    message: `Invalid params for "${method}": ${message}`,
  });
}

/** The name, arguments and cursor every subscribing method carries. */
export function eventRequestOf(request: InboundRequest): EventRequest {
  const params = request.params ?? {};
  if (typeof params.name !== 'string') {
    throw invalid(request.method, 'name must be the event type (a string from events/list).');
  }
  const args = params.arguments ?? {};
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw invalid(request.method, "arguments must be an object matching the event type's inputSchema.");
  }
  const cursor = params.cursor ?? null;
  if (cursor !== null && typeof cursor !== 'string') {
    throw invalid(request.method, 'cursor must be a string from an earlier answer, or null.');
  }
  return { name: params.name, arguments: args as Record<string, unknown>, cursor };
}

/** A positive integer field of the params, or undefined. */
export function positiveIntegerOf(request: InboundRequest, field: string): number | undefined {
  const value = request.params?.[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw invalid(request.method, `${field} must be a positive integer.`);
  }
  return value;
}

/** The webhook `delivery` object: its URL (allowed by `policy`) and secret. */
export function webhookDeliveryOf(
  request: InboundRequest,
  policy: WebhookPolicy,
): { url: string; secret: unknown } {
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
  if (!(policy.allowCallback ?? defaultAllowCallback)(url)) {
    throw invalid(
      request.method,
      'delivery.url is not an allowed callback: it must be https and not a loopback or private address.',
    );
  }
  return { url: url.href, secret: delivery.secret };
}

/** Who the caller is, for webhook subscriptions; refused without one (the extension requires it). */
export function principalOf(request: InboundRequest, policy: WebhookPolicy): string {
  const auth = request.auth;
  const principal = auth?.principal ?? auth?.subject ?? auth?.clientId ?? policy.anonymousPrincipal;
  if (principal === undefined) {
    throw new ServerError({
      code: ServerErrorCode.EventsForbidden,
      message: `"${request.method}" needs an authenticated caller: webhook subscriptions belong to a principal. Configure HTTP auth on the server.`,
    });
  }
  return principal;
}
