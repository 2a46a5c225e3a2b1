/**
 * Every JSON-RPC error code this server puts on the wire, named in one table. Numbers only cross
 * the wire; local failures carry the string codes of `server-error.ts` and are mapped to these.
 */
export const JsonRpcErrorCode = {
  /** The input is not valid JSON. */
  ParseError: -32700,
  /** The JSON is not a valid JSON-RPC message. */
  InvalidRequest: -32600,
  /** No such method (in the era the request was served in). */
  MethodNotFound: -32601,
  /** Bad params, an unknown tool or prompt, a missing resource (2026-07-28 and the SDK's choice for 2025). */
  InvalidParams: -32602,
  /** The server failed. */
  InternalError: -32603,
  /** Implementation-defined: an HTTP-level refusal (forbidden Host/Origin, method not allowed, no session header, shutting down). */
  TransportRefused: -32000,
  /** Implementation-defined: the request lacks valid credentials, or names a session that does not exist (any more). */
  Unauthorized: -32001,
  /** Implementation-defined: the session named by `Mcp-Session-Id` is unknown (the SDK's code). */
  SessionNotFound: -32001,
  /** 2025 era: resource not found. Received from older peers, never emitted (see `InvalidParams`). */
  LegacyResourceNotFound: -32002,
  /** Events (SEP-3415): the named event type (or subscription) does not exist. */
  EventsNotFound: -32011,
  /** Events: the caller may not make this request (webhook subscriptions need an authenticated caller). */
  EventsForbidden: -32012,
  /** Events: a subscription limit is reached. */
  EventsResourceExhausted: -32013,
  /** Events: the event type does not offer the delivery mode asked for. */
  EventsUnsupported: -32014,
  /** Events: the webhook callback failed verification (`data.reason` says how). */
  CallbackEndpointError: -32015,
  /** 2026-07-28: an HTTP header disagrees with the body, or a required one is missing. */
  HeaderMismatch: -32020,
  /** 2026-07-28: the request needs a client capability its `_meta` did not declare. */
  MissingRequiredClientCapability: -32021,
  /** 2026-07-28: the protocol version is unknown to this server (data lists the supported ones). */
  UnsupportedProtocolVersion: -32022,
  /** Implementation-defined: the caller exceeded a rate limit (`data.retryAfterSeconds` says when to retry). */
  RateLimited: -32029,
  /** Implementation-defined: the shared replica state (Redis) the request needs is unreachable; retry shortly. */
  ClusterUnavailable: -32030,
  /** A URL-mode elicitation is required before the call can go on. */
  UrlElicitationRequired: -32042,
} as const;

/** One of the wire codes of {@link JsonRpcErrorCode}, or any other number a peer sent. */
export type JsonRpcErrorCodeValue = (typeof JsonRpcErrorCode)[keyof typeof JsonRpcErrorCode] | (number & {});
