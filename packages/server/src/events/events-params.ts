/**
 * Reading the params of `events/*` requests: the event type (offered, and offering the mode asked
 * for), its subscription arguments (checked against the type's `inputSchema`), a cursor, and who
 * the caller is for webhook subscriptions. Each bad input is a coded `ServerError` saying what to send.
 */
import { ServerError, ServerErrorCode } from '../errors/server-error.js';
import type { InboundRequest } from '../request/inbound-request.js';
import type { EventHub } from './event-hub.js';
import type { EventDeliveryMode, EventTypeDefinition } from './event-type.js';
import { eventDeliveryModes } from './event-type.js';

function invalid(method: string, message: string): ServerError {
  return new ServerError({
    code: ServerErrorCode.InvalidParams,
    message: `Invalid params for "${method}": ${message}`,
  });
}

/** The event type a request names, checked to offer `mode`. */
export function eventTypeOf(
  hub: EventHub,
  request: InboundRequest,
  mode: EventDeliveryMode,
): EventTypeDefinition {
  const name = request.params?.name;
  if (typeof name !== 'string')
    throw invalid(request.method, 'name must be the event type (a string from events/list).');
  const type = hub.get(name);
  if (type === undefined) {
    throw new ServerError({
      code: ServerErrorCode.EventTypeNotFound,
      message: `No event type "${name}" is offered; call events/list for the offered types.`,
      data: { name },
    });
  }
  if (!(type.delivery ?? eventDeliveryModes).includes(mode)) {
    throw new ServerError({
      code: ServerErrorCode.EventDeliveryUnsupported,
      message: `Event type "${name}" is not delivered by ${mode}; it offers ${(type.delivery ?? []).join(', ')}.`,
      data: { name, mode },
    });
  }
  return type;
}

/** The subscription arguments, valid for the type's `inputSchema`. */
export function argumentsOf(hub: EventHub, request: InboundRequest, name: string): Record<string, unknown> {
  const args = request.params?.arguments ?? {};
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw invalid(request.method, "arguments must be an object matching the event type's inputSchema.");
  }
  const problems = hub.checkArguments(name, args);
  if (problems.length > 0) {
    throw invalid(
      request.method,
      `arguments do not match the inputSchema of "${name}": ${problems.join('; ')}.`,
    );
  }
  return args as Record<string, unknown>;
}

/** The cursor: a string, or null/absent for "from now". */
export function cursorOf(request: InboundRequest): string | null {
  const cursor = request.params?.cursor;
  if (cursor === undefined || cursor === null) return null;
  if (typeof cursor !== 'string')
    throw invalid(request.method, 'cursor must be a string from an earlier answer, or null.');
  return cursor;
}

/** A positive integer option of the params, or undefined. */
export function positiveIntegerOf(request: InboundRequest, field: string): number | undefined {
  const value = request.params?.[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw invalid(request.method, `${field} must be a positive integer.`);
  }
  return value;
}

/** Who the caller is, for webhook subscriptions; refused without one (the extension requires it). */
export function principalOf(request: InboundRequest, anonymous: string | undefined): string {
  const auth = request.auth;
  const principal = auth?.principal ?? auth?.subject ?? auth?.clientId ?? anonymous;
  if (principal === undefined) {
    throw new ServerError({
      code: ServerErrorCode.EventsForbidden,
      message: `"${request.method}" needs an authenticated caller: webhook subscriptions belong to a principal. Configure HTTP auth on the server.`,
    });
  }
  return principal;
}
