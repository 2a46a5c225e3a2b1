/**
 * Turns whatever the SDK, a transport or the network threw into a `SwitchboardError` that names the
 * server (and tool), says what happened and what to try, and never carries a secret.
 * Wire errors (JSON-RPC errors the server answered with) keep their numeric code in `context.jsonRpcCode`.
 */

import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { SwitchboardError } from '@switchboard/core';
import type { Redactor } from './redactor.js';

/** Error codes the client adds to core's. */
export type ClientErrorCode =
  | 'CONNECTION_FAILED'
  | 'CONNECTION_CLOSED'
  | 'SESSION_EXPIRED'
  | 'NEEDS_AUTH'
  | 'TIMEOUT'
  | 'CANCELLED'
  | 'SERVER_ERROR'
  | 'TRANSPORT_ERROR'
  | 'CIRCUIT_OPEN'
  | 'APPROVAL_REQUIRED'
  | 'APPROVAL_DENIED'
  | 'SERVER_NOT_FOUND'
  | 'CLIENT_CLOSED'
  | 'OUTPUT_INVALID';

/** Codes meaning the connection (not the request) failed: the server may be respawned and idempotent calls retried. */
const connectionCodes = new Set<string>([
  'CONNECTION_FAILED',
  'CONNECTION_CLOSED',
  'SESSION_EXPIRED',
  'TRANSPORT_ERROR',
  // Codes of @switchboard/transports.
  'SERVER_EXITED',
  'NOT_CONNECTED',
  'SPAWN_FAILED',
]);

/** Codes meaning the server wants credentials. */
export function isAuthError(error: unknown): boolean {
  return SwitchboardError.isInstance(error) && (error.code === 'NEEDS_AUTH' || error.code === 'UNAUTHORIZED');
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
  return new SwitchboardError({ code: error.code, message: named, context });
}

/** True when `error` is a connection-level failure. */
export function isConnectionError(error: unknown): boolean {
  return SwitchboardError.isInstance(error) && connectionCodes.has(error.code);
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
}

function httpStatusOf(error: unknown): number | undefined {
  const code = (error as { code?: unknown })?.code;
  const name = (error as { constructor?: { name?: string } })?.constructor?.name;
  if (typeof code === 'number' && code >= 100 && code < 600 && /HTTP|SSE/i.test(name ?? '')) return code;
  const message = error instanceof Error ? error.message : '';
  const match = /\bHTTP (\d{3})\b|\(HTTP (\d{3})\)|Non-200 status code \((\d{3})\)/.exec(message);
  const digits = match?.[1] ?? match?.[2] ?? match?.[3];
  return digits ? Number(digits) : undefined;
}

function systemCodeOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
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

/** Wraps any thrown value into a redacted, explanatory `SwitchboardError`. */
export function toClientError(error: unknown, scene: ErrorScene): SwitchboardError {
  if (SwitchboardError.isInstance(error)) return redactSwitchboardError(error, scene);
  const redact = scene.redactor.redact;
  const where = scene.tool
    ? `tool "${scene.tool}" on MCP server "${scene.server}"`
    : `MCP server "${scene.server}" (${scene.operation})`;
  const raw = redact(error instanceof Error ? error.message : String(error));
  const context: Record<string, unknown> = { server: scene.server, operation: scene.operation };
  if (scene.tool) context.tool = scene.tool;
  const make = (code: ClientErrorCode, message: string, extra: Record<string, unknown> = {}) =>
    new SwitchboardError({
      code,
      message: redact(message),
      context: { ...context, ...extra },
      // The original may quote secrets (URLs, headers); keep only its redacted message.
      cause: new Error(raw),
    });

  if (error instanceof Error && (error.name === 'AbortError' || /aborted/i.test(error.message))) {
    return make('CANCELLED', `${where} was cancelled before it finished.`);
  }
  if (error instanceof McpError) {
    if (error.code === ErrorCode.RequestTimeout) {
      return make(
        'TIMEOUT',
        `${where} did not answer in time (${raw}). Raise the timeout if the work is legitimately slow, or check the server is healthy.`,
      );
    }
    if (error.code === ErrorCode.ConnectionClosed) {
      return make(
        'CONNECTION_CLOSED',
        `${where}: the connection closed before an answer came (the server exited or dropped the connection).${stderrHint(scene)}`,
      );
    }
    return make('SERVER_ERROR', `${where} answered with an error: ${raw}`, { jsonRpcCode: error.code });
  }
  if (error instanceof Error && /^Not connected$/i.test(error.message)) {
    return make(
      'CONNECTION_CLOSED',
      `${where}: not connected (the server exited or was closed).${stderrHint(scene)}`,
    );
  }
  if (error instanceof Error && error.name === 'UnauthorizedError') {
    return make(
      'NEEDS_AUTH',
      `${where} requires authorization. Add credentials (e.g. an Authorization header) to its config.`,
    );
  }
  const status = httpStatusOf(error);
  if (status === 401 || status === 403) {
    return make(
      'NEEDS_AUTH',
      `${where} refused the request with HTTP ${status}. Add or fix its credentials (headers) in the config.`,
      { httpStatus: status },
    );
  }
  if (status === 404 && scene.operation !== 'initialize') {
    return make('SESSION_EXPIRED', `${where}: the server no longer knows this session (HTTP 404).`, {
      httpStatus: status,
    });
  }
  const system = systemCodeOf(error);
  if (system === 'ENOENT' && scene.operation === 'initialize') {
    return make(
      'CONNECTION_FAILED',
      `Could not start MCP server "${scene.server}": command ${scene.target ?? ''} was not found (ENOENT). Install it, check PATH, or give an absolute path in the server's "command".`,
      { systemCode: system },
    );
  }
  if (system === 'EACCES' && scene.operation === 'initialize') {
    return make(
      'CONNECTION_FAILED',
      `Could not start MCP server "${scene.server}": command ${scene.target ?? ''} is not executable (EACCES). Check its permissions.`,
      { systemCode: system },
    );
  }
  if (
    system === 'ECONNREFUSED' ||
    system === 'ENOTFOUND' ||
    system === 'ECONNRESET' ||
    system === 'EHOSTUNREACH'
  ) {
    const what =
      system === 'ECONNREFUSED'
        ? 'the connection was refused'
        : system === 'ENOTFOUND'
          ? 'the host name does not resolve'
          : system === 'ECONNRESET'
            ? 'the connection was reset'
            : 'the host is unreachable';
    return make(
      'CONNECTION_FAILED',
      `Could not reach ${where} at ${scene.target ?? 'its URL'}: ${what} (${system}). Check the server is running and the URL and port are right.`,
      { systemCode: system },
    );
  }
  if (status !== undefined) {
    return make('TRANSPORT_ERROR', `${where} failed with HTTP ${status}: ${raw}`, { httpStatus: status });
  }
  return make('TRANSPORT_ERROR', `${where} failed: ${raw}${stderrHint(scene)}`);
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
