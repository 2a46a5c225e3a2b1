/**
 * The client's errors: the code tables beside the error class — the client's own codes, and the
 * transports' codes that reach callers unchanged — and the one place that turns whatever the SDK,
 * a transport or the network threw into a `ClientError` that names the server (and tool), says
 * what happened and what to try, and never carries a secret. HTTP statuses and JSON-RPC codes are
 * fields, read from the errors themselves, never parsed out of message text.
 */

import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import { SwitchboardError } from '@switchboard/core';
import { JsonRpcErrorCode, TransportErrorCode } from '@switchboard/transports';
import type { Redactor } from './redactor.js';

/** Codes of the errors the client raises (local errors, string values). */
export const ClientErrorCode = {
  /** The server could not be started or reached, or the connection could not be set up. */
  ConnectionFailed: 'CONNECTION_FAILED',
  /** The connection ended before an answer came. */
  ConnectionClosed: 'CONNECTION_CLOSED',
  /** The server forgot the HTTP session (2025 era): the request never ran; re-initialize and retry. */
  SessionExpired: 'SESSION_EXPIRED',
  /** The server wants credentials (OAuth sign-in, a token, a header). */
  NeedsAuth: 'NEEDS_AUTH',
  /** No answer within the deadline. */
  Timeout: 'TIMEOUT',
  /** The caller aborted. */
  Cancelled: 'CANCELLED',
  /** The server answered with a JSON-RPC error (its code is `jsonRpcCode`). */
  ServerError: 'SERVER_ERROR',
  /** The transport failed in a way no other code describes (HTTP status in `httpStatus`). */
  TransportError: 'TRANSPORT_ERROR',
  /** Client and server share no protocol version, or a pinned one was refused. */
  UnsupportedProtocolVersion: 'UNSUPPORTED_PROTOCOL_VERSION',
  /** The server keeps failing: calls fail fast until the breaker lets a trial through. */
  CircuitOpen: 'CIRCUIT_OPEN',
  /** A tool's policy says ask, and no `approve` callback was given. */
  ApprovalRequired: 'APPROVAL_REQUIRED',
  /** A tool was refused by the policy or the person asked. */
  ApprovalDenied: 'APPROVAL_DENIED',
  /** No server of that name in this connection. */
  ServerNotFound: 'SERVER_NOT_FOUND',
  /** A server of that name is already part of this connection. */
  ServerExists: 'SERVER_EXISTS',
  /** No tool of that name from these servers. */
  ToolNotFound: 'TOOL_NOT_FOUND',
  /** `mcp_call_tool` was asked to call an MCP App's own tool (visibility `["app"]`): only its app calls it. */
  ToolNotForModel: 'TOOL_NOT_FOR_MODEL',
  /** `mcp_connect` was asked to add a server that is not configured, and the application allows none. */
  NewServerNotAllowed: 'NEW_SERVER_NOT_ALLOWED',
  /** `mcp_connect` was asked to run a command outside the application's allowed list. */
  CommandNotAllowed: 'COMMAND_NOT_ALLOWED',
  /** `mcp_connect` was asked to reach a URL outside the application's allowed prefixes. */
  UrlNotAllowed: 'URL_NOT_ALLOWED',
  /** The tool is quarantined (changed, new, renamed or flagged since it was trusted): refused until a person approves it. */
  ToolQuarantined: 'TOOL_QUARANTINED',
  /** The client was closed. */
  ClientClosed: 'CLIENT_CLOSED',
  /** A tool's structured output contradicts its `outputSchema`. */
  OutputInvalid: 'OUTPUT_INVALID',
  /** A server entry that cannot work. */
  ConfigInvalid: 'CONFIG_INVALID',
  /** A task ended as `failed` (the server's JSON-RPC error is the cause). */
  TaskFailed: 'TASK_FAILED',
  /** A task ended as `cancelled`. */
  TaskCancelled: 'TASK_CANCELLED',
  /** No resource of that URI on these servers (none lists it or has a template that matches it). */
  ResourceNotFound: 'RESOURCE_NOT_FOUND',
  /** No prompt of that name on these servers. */
  PromptNotFound: 'PROMPT_NOT_FOUND',
  /** A skill file failed verification against its listed entry (size, digest, frontmatter). */
  SkillInvalid: 'SKILL_INVALID',
  /** A server's `headersHelper` command failed, timed out or printed no JSON object of headers. */
  HeadersHelperFailed: 'HEADERS_HELPER_FAILED',
  /** A tool's arguments do not match its input schema (the message lists what to fix). */
  ValidationFailed: 'VALIDATION_FAILED',
  /** A tool's input schema cannot be compiled, so its arguments cannot be checked. */
  InvalidSchema: 'INVALID_SCHEMA',
  /** A tool has no MCP App, or its `ui://` resource is not an HTML app. */
  AppNotFound: 'APP_NOT_FOUND',
  /** A request an MCP App sent its host was refused (another server's tool, one kept from apps, another method). */
  AppRequestRefused: 'APP_REQUEST_REFUSED',
  /** The server does not offer the Events extension (`io.modelcontextprotocol/events`) on this connection. */
  EventsUnavailable: 'EVENTS_UNAVAILABLE',
  /** A webhook delivery's signature does not match its body under the subscription's secret (tampered, or another secret). */
  WebhookSignatureInvalid: 'WEBHOOK_SIGNATURE_INVALID',
  /** A webhook delivery's timestamp is outside the tolerance (a replay, or a clock far off). */
  WebhookTimestampExpired: 'WEBHOOK_TIMESTAMP_EXPIRED',
} as const;

/** A code of the client's own errors (the table above). */
export type ClientErrorCode = (typeof ClientErrorCode)[keyof typeof ClientErrorCode];

/**
 * The transports' codes (`SPAWN_FAILED`, `SERVER_EXITED`, `UNAUTHORIZED`, …): their own table,
 * re-exported here because they reach the client's callers unchanged.
 */
export { TransportErrorCode };

/** Any code a {@link ClientError} carries: the client's own, or a transport's passed through. */
export type ClientFailureCode = ClientErrorCode | TransportErrorCode;

/** Options of a {@link ClientError}. */
export interface ClientErrorOptions {
  code: ClientFailureCode;
  message: string;
  context?: Record<string, unknown>;
  /** The HTTP status the server answered with. */
  httpStatus?: number;
  /** The JSON-RPC error code the server answered with. */
  jsonRpcCode?: number;
  cause?: unknown;
}

/** An error of the client. `SwitchboardError.isInstance` recognises it (across package copies too). */
export class ClientError extends SwitchboardError {
  declare readonly code: ClientFailureCode;
  /** The HTTP status the server answered with, when the failure was an HTTP answer. */
  readonly httpStatus: number | undefined;
  /** The JSON-RPC error code the server answered with, when it answered with an error. */
  readonly jsonRpcCode: number | undefined;

  constructor(options: ClientErrorOptions) {
    const context = { ...options.context };
    if (options.httpStatus !== undefined) context.httpStatus = options.httpStatus;
    if (options.jsonRpcCode !== undefined) context.jsonRpcCode = options.jsonRpcCode;
    super({
      code: options.code,
      message: options.message,
      context,
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
    this.name = 'ClientError';
    this.httpStatus = options.httpStatus;
    this.jsonRpcCode = options.jsonRpcCode;
  }
}

/** Codes meaning the connection (not the request) failed: the server may be respawned and idempotent calls retried. */
const connectionCodes: ReadonlySet<string> = new Set<ClientFailureCode>([
  ClientErrorCode.ConnectionFailed,
  ClientErrorCode.ConnectionClosed,
  ClientErrorCode.SessionExpired,
  ClientErrorCode.TransportError,
  TransportErrorCode.ServerExited,
  TransportErrorCode.NotConnected,
  TransportErrorCode.SpawnFailed,
]);

/** Codes meaning the server wants credentials. */
const authCodes: ReadonlySet<string> = new Set<string>([
  ClientErrorCode.NeedsAuth,
  TransportErrorCode.Unauthorized,
  TransportErrorCode.InsufficientScope,
]);

/** True when the server wants credentials. */
export function isAuthError(error: unknown): boolean {
  return SwitchboardError.isInstance(error) && authCodes.has(error.code);
}

/** True when `error` is a connection-level failure. */
export function isConnectionError(error: unknown): error is SwitchboardError & { code: ClientFailureCode } {
  return SwitchboardError.isInstance(error) && connectionCodes.has(error.code);
}

/**
 * `error` as a `ClientError` (the client's errors are; core's argument validator raises plain
 * `SwitchboardError`s): same code, message, context; the original as its cause.
 */
export function asClientError(error: SwitchboardError & { code: ClientFailureCode }): ClientError {
  if (error instanceof ClientError) return error;
  return new ClientError({ code: error.code, message: error.message, context: error.context, cause: error });
}

/** True when the request was rejected before it ran because the server lost the session. */
export function isSessionLost(error: unknown): boolean {
  return SwitchboardError.hasCode(error, ClientErrorCode.SessionExpired);
}

/** Where an error happened. */
export interface ErrorScene {
  server: string;
  /** What was being done: `initialize`, `tools/call`... */
  operation: string;
  tool?: string;
  /** Recent stderr lines of a stdio server (already redacted). */
  stderr?: string[];
  redactor: Redactor;
  /** Human description of how the server is reached (command name or URL without secrets). */
  target?: string;
  /** The caller's signal: an abort shows up as a timeout-coded SDK error, this tells them apart. */
  signal?: AbortSignal | undefined;
}

function redactValue(value: unknown, redactor: Redactor): unknown {
  if (typeof value === 'string') return redactor.redact(value);
  if (Array.isArray(value))
    return value.map((item) => (typeof item === 'string' ? redactor.redact(item) : item));
  return value;
}

/** A copy of a SwitchboardError with secrets masked and the scene added to its context. */
function redactSwitchboardError(error: SwitchboardError, scene: ErrorScene): SwitchboardError {
  const message = scene.redactor.redact(error.message);
  const context: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error.context)) context[key] = redactValue(value, scene.redactor);
  context.server ??= scene.server;
  if (scene.tool) context.tool ??= scene.tool;
  const named =
    scene.tool && !message.includes(`"${scene.tool}"`) ? `Tool "${scene.tool}": ${message}` : message;
  if (
    named === error.message &&
    context.server === error.context.server &&
    context.tool === error.context.tool
  ) {
    return error;
  }
  const status = (error as { status?: unknown }).status ?? (error as { httpStatus?: unknown }).httpStatus;
  return new ClientError({
    code: error.code as ClientFailureCode,
    message: named,
    context,
    ...(typeof status === 'number' ? { httpStatus: status } : {}),
  });
}

function systemCodeOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
    // undici's AggregateError for happy-eyeballs keeps the real error in `errors`.
    const errors = (current as { errors?: unknown[] }).errors;
    if (Array.isArray(errors) && errors.length > 0) {
      const inner = systemCodeOf(errors[0]);
      if (inner) return inner;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function stderrHint(scene: ErrorScene): string {
  const lines = scene.stderr?.filter((line) => line.trim().length > 0) ?? [];
  if (lines.length === 0) return '';
  return ` Its stderr ended with:\n  ${lines.slice(-5).join('\n  ')}`;
}

/** Whether an SDK `RequestTimeout` came from a deadline (its data names one), not from an abort. */
function isDeadline(data: unknown): boolean {
  const deadline = data as { timeout?: unknown; maxTotalTimeout?: unknown } | undefined;
  return deadline?.timeout !== undefined || deadline?.maxTotalTimeout !== undefined;
}

/** The error an SDK error wraps (`data.cause` of a failed negotiation, `cause` elsewhere). */
function wrappedCause(error: SdkError): unknown {
  return (error.data as { cause?: unknown } | undefined)?.cause ?? error.cause;
}

/** Wraps any thrown value into a redacted, explanatory `ClientError`. */
export function toClientError(error: unknown, scene: ErrorScene): SwitchboardError {
  if (SwitchboardError.isInstance(error)) return redactSwitchboardError(error, scene);
  const redact = scene.redactor.redact;
  const where = scene.tool
    ? `tool "${scene.tool}" on MCP server "${scene.server}"`
    : `MCP server "${scene.server}" (${scene.operation})`;
  const raw = redact(error instanceof Error ? error.message : String(error));
  const context: Record<string, unknown> = { server: scene.server, operation: scene.operation };
  if (scene.tool) context.tool = scene.tool;
  const make = (
    code: ClientFailureCode,
    message: string,
    extra: { context?: Record<string, unknown>; httpStatus?: number; jsonRpcCode?: number } = {},
  ) =>
    new ClientError({
      code,
      message: redact(message),
      context: { ...context, ...extra.context },
      ...(extra.httpStatus === undefined ? {} : { httpStatus: extra.httpStatus }),
      ...(extra.jsonRpcCode === undefined ? {} : { jsonRpcCode: extra.jsonRpcCode }),
      // The original may quote secrets (URLs, headers); keep only its redacted message.
      cause: new Error(raw),
    });

  if (scene.signal?.aborted || (error instanceof Error && error.name === 'AbortError')) {
    return make(ClientErrorCode.Cancelled, `${where} was cancelled before it finished.`);
  }
  if (error instanceof SdkHttpError) {
    const status = error.status;
    if (status === 401 || status === 403) {
      return make(
        ClientErrorCode.NeedsAuth,
        `${where} refused the request with HTTP ${status}. Add or fix its credentials (headers) in the config.`,
        { httpStatus: status },
      );
    }
    return make(ClientErrorCode.TransportError, `${where} failed with HTTP ${status}: ${raw}`, {
      httpStatus: status,
    });
  }
  if (error instanceof SdkError) {
    switch (error.code) {
      case SdkErrorCode.RequestTimeout:
        // A caller's abort surfaces with this code too; only a real deadline carries `timeout`
        // (or `maxTotalTimeout`, the deadline that progress does not restart).
        if (!isDeadline(error.data)) {
          return make(ClientErrorCode.Cancelled, `${where} was cancelled before it finished.`);
        }
        return make(
          ClientErrorCode.Timeout,
          `${where} did not answer in time (${raw}). Raise the timeout if the work is legitimately slow, or check the server is healthy.`,
        );
      case SdkErrorCode.ConnectionClosed:
      case SdkErrorCode.NotConnected:
        return make(
          ClientErrorCode.ConnectionClosed,
          `${where}: the connection closed before an answer came (the server exited or dropped the connection).${stderrHint(scene)}`,
        );
      case SdkErrorCode.EraNegotiationFailed: {
        const cause = wrappedCause(error);
        if (cause !== undefined && cause !== error) return toClientError(cause, scene);
        return make(
          ClientErrorCode.UnsupportedProtocolVersion,
          `${where}: ${raw}. Leave "protocolVersion" out to let the client pick the era, or pin a version the server speaks.`,
        );
      }
      default:
        return make(ClientErrorCode.ServerError, `${where} failed: ${raw}`, {
          context: { sdkCode: error.code },
        });
    }
  }
  if (error instanceof ProtocolError) {
    if (error.code === JsonRpcErrorCode.UnsupportedProtocolVersion) {
      const supported = (error.data as { supported?: unknown } | undefined)?.supported;
      return make(
        ClientErrorCode.UnsupportedProtocolVersion,
        `${where} does not speak the offered protocol version; it supports ${Array.isArray(supported) ? supported.join(', ') : 'other versions'}. Remove the "protocolVersion" pin, or pin one of those.`,
        { jsonRpcCode: error.code, context: { supported } },
      );
    }
    // A missing capability's error names what is missing: kept, so a relay can answer with it.
    const required = (error.data as { requiredCapabilities?: unknown } | undefined)?.requiredCapabilities;
    return make(ClientErrorCode.ServerError, `${where} answered with an error: ${raw}`, {
      jsonRpcCode: error.code,
      ...(required !== undefined && error.code === JsonRpcErrorCode.MissingRequiredClientCapability
        ? { context: { requiredCapabilities: required } }
        : {}),
    });
  }
  if (error instanceof Error && error.name === 'UnauthorizedError') {
    return make(
      ClientErrorCode.NeedsAuth,
      `${where} requires authorization. Add credentials (e.g. an Authorization header) to its config.`,
    );
  }
  const system = systemCodeOf(error);
  if ((system === 'ENOENT' || system === 'EACCES') && scene.operation === 'initialize') {
    return make(
      ClientErrorCode.ConnectionFailed,
      system === 'ENOENT'
        ? `Could not start MCP server "${scene.server}": command ${scene.target ?? ''} was not found (ENOENT). Install it, check PATH, or give an absolute path in the server's "command".`
        : `Could not start MCP server "${scene.server}": command ${scene.target ?? ''} is not executable (EACCES). Check its permissions.`,
      { context: { systemCode: system } },
    );
  }
  const unreachable: Record<string, string> = {
    ECONNREFUSED: 'the connection was refused',
    ENOTFOUND: 'the host name does not resolve',
    ECONNRESET: 'the connection was reset',
    EHOSTUNREACH: 'the host is unreachable',
  };
  if (system !== undefined && unreachable[system] !== undefined) {
    return make(
      ClientErrorCode.ConnectionFailed,
      `Could not reach ${where} at ${scene.target ?? 'its URL'}: ${unreachable[system]} (${system}). Check the server is running and the URL and port are right.`,
      { context: { systemCode: system } },
    );
  }
  return make(ClientErrorCode.TransportError, `${where} failed: ${raw}${stderrHint(scene)}`);
}

/** A URL for messages: origin and path only (no credentials, no query that may hold tokens). */
export function describeUrl(url: string | undefined): string {
  if (!url) return 'its URL';
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return 'an invalid URL';
  }
}
