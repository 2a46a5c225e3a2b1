/**
 * The JSON-RPC error codes the transports read in server answers, named in one place. Codes the
 * spec defines come first; the last two are conventions of SDK v1 HTTP servers (2025 era).
 */
export const JsonRpcErrorCode = {
  /** `Method not found`. */
  MethodNotFound: -32601,
  /** `UnsupportedProtocolVersionError` (2026-07-28): the server names the versions it supports. */
  UnsupportedProtocolVersion: -32022,
  /** `MissingRequiredClientCapabilityError` (2026-07-28). */
  MissingRequiredClientCapability: -32021,
  /** `HeaderMismatch` (2026-07-28): an HTTP header disagrees with the body. */
  HeaderMismatch: -32020,
  /** SDK v1 servers' generic `Bad Request` (unknown or missing session id among others). */
  LegacyBadRequest: -32000,
  /** SDK v1 servers' `Session not found`. */
  LegacySessionNotFound: -32001,
} as const;

/** Errors only a modern (2026-07-28) server answers with: a server that sends one is modern. */
export const modernErrorCodes: ReadonlySet<number> = new Set([
  JsonRpcErrorCode.UnsupportedProtocolVersion,
  JsonRpcErrorCode.MissingRequiredClientCapability,
  JsonRpcErrorCode.HeaderMismatch,
]);
