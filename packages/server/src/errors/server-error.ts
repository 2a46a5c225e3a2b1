/**
 * Local errors of @switchboard/server: a string code from one table, the JSON-RPC code it is
 * answered with on the wire, and the HTTP status it maps to where HTTP decides it. Code that needs
 * to know what failed (the REST endpoint, the gateway) compares codes, never message text.
 */
import { SwitchboardError } from '@switchboard/core';
import { JsonRpcErrorCode } from './json-rpc-error-code.js';

/** String codes of the server's local errors. */
export const ServerErrorCode = {
  /** `tools/call` named a tool this server does not serve. */
  ToolNotFound: 'TOOL_NOT_FOUND',
  /** `tools/call` named a tool the server has but does not serve: its approval policy hides it. */
  ToolNotServed: 'TOOL_NOT_SERVED',
  /** `prompts/get` named a prompt this server does not serve. */
  PromptNotFound: 'PROMPT_NOT_FOUND',
  /** `resources/read` (or subscribe) named a URI no resource or template matches. */
  ResourceNotFound: 'RESOURCE_NOT_FOUND',
  /** A request's params do not have the shape its method needs. */
  InvalidParams: 'INVALID_PARAMS',
  /** A method this server does not serve (in the request's era). */
  MethodNotFound: 'METHOD_NOT_FOUND',
  /** A retry's `requestState` failed its integrity check, expired, or is not ours. */
  RequestStateInvalid: 'REQUEST_STATE_INVALID',
  /** A retry names a suspended call this process no longer holds (expired, restarted, another instance). */
  SuspendedCallGone: 'SUSPENDED_CALL_GONE',
  /** A retry names a suspended call parked on another replica, which did not answer (gone, or silent past the timeout). */
  SuspendedCallUnreachable: 'SUSPENDED_CALL_UNREACHABLE',
  /** A tool asked the client for input where no channel to it exists (2025 stateless HTTP, REST, `callTool`). */
  ClientInputUnavailable: 'CLIENT_INPUT_UNAVAILABLE',
  /** The request needs a client capability the client did not declare. */
  MissingClientCapability: 'MISSING_CLIENT_CAPABILITY',
  /** `tasks/get`, `tasks/update` or `tasks/cancel` named a task this server does not know. */
  TaskNotFound: 'TASK_NOT_FOUND',
  /** A tasks method named a task relayed for another caller (a gateway task id bound to someone else). */
  TaskNotOwned: 'TASK_NOT_OWNED',
  /** The tool must run as a task but the client did not declare the tasks extension. */
  TaskRequired: 'TASK_REQUIRED',
  /** A gateway route points at an upstream server that is not connected. */
  UpstreamUnavailable: 'UPSTREAM_UNAVAILABLE',
  /** An upstream server answered a routed request with an error. */
  UpstreamFailed: 'UPSTREAM_FAILED',
  /** The request was cancelled (client cancellation, closed stream, shutdown). */
  Cancelled: 'CANCELLED',
  /** A call exceeded `rateLimit.callsPerMinute` for its principal and tool. */
  RateLimited: 'RATE_LIMITED',
  /** The shared replica state (`ClusterState`, e.g. Redis) the request needs did not answer. */
  ClusterUnavailable: 'CLUSTER_UNAVAILABLE',
  /** `ClusterState.forwardRequest`: no replica by that id listens, or it stayed silent past the timeout. */
  ReplicaUnreachable: 'REPLICA_UNREACHABLE',
  /** A bad option passed to a factory of this package. */
  ConfigInvalid: 'CONFIG_INVALID',
  /** An `events/*` request named an event type the server does not offer. */
  EventTypeNotFound: 'EVENT_TYPE_NOT_FOUND',
  /** An `events/poll` or `events/stream` cursor this server did not issue. */
  EventCursorInvalid: 'EVENT_CURSOR_INVALID',
  /** An events request the caller may not make (a webhook subscription without an authenticated caller). */
  EventsForbidden: 'EVENTS_FORBIDDEN',
  /** The server holds as many event subscriptions as it allows. */
  EventsExhausted: 'EVENTS_EXHAUSTED',
  /** The event type does not offer the delivery mode asked for. */
  EventDeliveryUnsupported: 'EVENT_DELIVERY_UNSUPPORTED',
  /** A webhook callback failed its verification (unreachable, an error status, no challenge echoed). */
  WebhookEndpointFailed: 'WEBHOOK_ENDPOINT_FAILED',
} as const;

/** One of the codes of {@link ServerErrorCode}. */
export type ServerErrorCodeValue = (typeof ServerErrorCode)[keyof typeof ServerErrorCode];

/** How each local code is answered: its JSON-RPC code and the HTTP status where HTTP decides. */
export const serverErrorWire: Readonly<
  Record<ServerErrorCodeValue, { rpcCode: number; httpStatus: number }>
> = {
  TOOL_NOT_FOUND: { rpcCode: JsonRpcErrorCode.InvalidParams, httpStatus: 404 },
  TOOL_NOT_SERVED: { rpcCode: JsonRpcErrorCode.InvalidParams, httpStatus: 403 },
  PROMPT_NOT_FOUND: { rpcCode: JsonRpcErrorCode.InvalidParams, httpStatus: 404 },
  RESOURCE_NOT_FOUND: { rpcCode: JsonRpcErrorCode.InvalidParams, httpStatus: 404 },
  INVALID_PARAMS: { rpcCode: JsonRpcErrorCode.InvalidParams, httpStatus: 400 },
  METHOD_NOT_FOUND: { rpcCode: JsonRpcErrorCode.MethodNotFound, httpStatus: 404 },
  REQUEST_STATE_INVALID: { rpcCode: JsonRpcErrorCode.InvalidParams, httpStatus: 400 },
  SUSPENDED_CALL_GONE: { rpcCode: JsonRpcErrorCode.InvalidParams, httpStatus: 400 },
  // Like a call that is gone: the requestState the client holds is spent, it starts over.
  SUSPENDED_CALL_UNREACHABLE: { rpcCode: JsonRpcErrorCode.InvalidParams, httpStatus: 400 },
  CLIENT_INPUT_UNAVAILABLE: { rpcCode: JsonRpcErrorCode.InvalidRequest, httpStatus: 400 },
  MISSING_CLIENT_CAPABILITY: { rpcCode: JsonRpcErrorCode.MissingRequiredClientCapability, httpStatus: 400 },
  TASK_NOT_FOUND: { rpcCode: JsonRpcErrorCode.InvalidParams, httpStatus: 404 },
  TASK_NOT_OWNED: { rpcCode: JsonRpcErrorCode.InvalidParams, httpStatus: 403 },
  TASK_REQUIRED: { rpcCode: JsonRpcErrorCode.InvalidRequest, httpStatus: 400 },
  UPSTREAM_UNAVAILABLE: { rpcCode: JsonRpcErrorCode.InternalError, httpStatus: 502 },
  UPSTREAM_FAILED: { rpcCode: JsonRpcErrorCode.InternalError, httpStatus: 502 },
  CANCELLED: { rpcCode: JsonRpcErrorCode.InternalError, httpStatus: 499 },
  RATE_LIMITED: { rpcCode: JsonRpcErrorCode.RateLimited, httpStatus: 429 },
  CLUSTER_UNAVAILABLE: { rpcCode: JsonRpcErrorCode.ClusterUnavailable, httpStatus: 503 },
  REPLICA_UNREACHABLE: { rpcCode: JsonRpcErrorCode.InternalError, httpStatus: 502 },
  CONFIG_INVALID: { rpcCode: JsonRpcErrorCode.InternalError, httpStatus: 500 },
  EVENT_TYPE_NOT_FOUND: { rpcCode: JsonRpcErrorCode.EventsNotFound, httpStatus: 404 },
  EVENT_CURSOR_INVALID: { rpcCode: JsonRpcErrorCode.InvalidParams, httpStatus: 400 },
  EVENTS_FORBIDDEN: { rpcCode: JsonRpcErrorCode.EventsForbidden, httpStatus: 403 },
  EVENTS_EXHAUSTED: { rpcCode: JsonRpcErrorCode.EventsResourceExhausted, httpStatus: 429 },
  EVENT_DELIVERY_UNSUPPORTED: { rpcCode: JsonRpcErrorCode.EventsUnsupported, httpStatus: 400 },
  WEBHOOK_ENDPOINT_FAILED: { rpcCode: JsonRpcErrorCode.CallbackEndpointError, httpStatus: 400 },
};

/** Options of a {@link ServerError}. */
export interface ServerErrorOptions {
  code: ServerErrorCodeValue;
  /** What failed, where, and what to do. Never secrets. */
  message: string;
  /** Structured facts (tool, uri, server...). */
  context?: Record<string, unknown>;
  /** `error.data` on the wire. @default none */
  data?: unknown;
  /** The JSON-RPC code, when it differs from the table (an upstream's own code). @default the table's */
  rpcCode?: number;
  cause?: unknown;
}

/** A local failure of the server, answered on the wire with its table's JSON-RPC code. */
export class ServerError extends SwitchboardError {
  declare readonly code: ServerErrorCodeValue;
  /** The JSON-RPC error code it is answered with. */
  readonly rpcCode: number;
  /** The HTTP status, where HTTP decides (REST endpoint, pre-dispatch refusals). */
  readonly httpStatus: number;
  /** `error.data` on the wire. */
  readonly data: unknown;

  constructor(options: ServerErrorOptions) {
    super({
      code: options.code,
      message: options.message,
      ...(options.context !== undefined ? { context: options.context } : {}),
      ...(options.cause !== undefined ? { cause: options.cause } : {}),
    });
    this.name = 'ServerError';
    const wire = serverErrorWire[options.code];
    this.rpcCode = options.rpcCode ?? wire.rpcCode;
    this.httpStatus = wire.httpStatus;
    this.data = options.data;
  }

  /** True for a ServerError (of any copy of this package) with one of the table's codes. */
  static isServerError(error: unknown): error is ServerError {
    return (
      SwitchboardError.isInstance(error) &&
      typeof (error as { rpcCode?: unknown }).rpcCode === 'number' &&
      Object.hasOwn(serverErrorWire, error.code)
    );
  }
}
