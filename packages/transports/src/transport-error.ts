/**
 * Local errors of the transports: a string code from the table below, the HTTP status as a field
 * where one was answered, structured context and a cause. They never cross the wire; JSON-RPC
 * errors a server answered with are delivered in-band (the SDK turns them into `ProtocolError`s),
 * and an unexpected HTTP status of a POST surfaces as the SDK's own `SdkHttpError`, which its
 * protocol-version negotiation reads.
 */
import { SwitchboardError } from '@switchboard/core';

/** The codes of {@link TransportError}s (string values, stable across releases). */
export const TransportErrorCode = {
  /** A stdio server could not be started (command not found, not executable, missing `cwd`). */
  SpawnFailed: 'SPAWN_FAILED',
  /** A stdio server exited or was killed while it was expected to run. */
  ServerExited: 'SERVER_EXITED',
  /** `send()` before `start()`, or after the connection ended. */
  NotConnected: 'NOT_CONNECTED',
  /** The server could not be reached (refused, unknown host, reset) or a fallback failed. */
  ConnectionFailed: 'CONNECTION_FAILED',
  /** The transport was closed while a request was under way. */
  ConnectionClosed: 'CONNECTION_CLOSED',
  /** The server no longer knows the HTTP session (2025 era): re-initialize. */
  SessionExpired: 'SESSION_EXPIRED',
  /** The server refused the credentials (HTTP 401/403) and authorization could not fix it. */
  Unauthorized: 'UNAUTHORIZED',
  /** The server keeps asking for more OAuth scopes than the authorization server grants. */
  InsufficientScope: 'INSUFFICIENT_SCOPE',
  /** A malformed message, an unexpected content type or a stream that could not be resumed. */
  TransportError: 'TRANSPORT_ERROR',
  /** A transport entry that cannot work (no command, no URL, unknown type). */
  ConfigInvalid: 'CONFIG_INVALID',
} as const;

/** A code of a {@link TransportError}. */
export type TransportErrorCode = (typeof TransportErrorCode)[keyof typeof TransportErrorCode];

/** Options of a {@link TransportError}. */
export interface TransportErrorOptions {
  code: TransportErrorCode;
  /** What failed, where, and what to do. Never a secret. */
  message: string;
  /** The HTTP status the server answered with, when there was one. */
  status?: number;
  context?: Record<string, unknown>;
  cause?: unknown;
}

/** An error a transport raised locally. `SwitchboardError.isInstance` recognises it. */
export class TransportError extends SwitchboardError {
  declare readonly code: TransportErrorCode;
  /** The HTTP status the server answered with, when the failure was an HTTP answer. */
  readonly status: number | undefined;

  constructor(options: TransportErrorOptions) {
    super({
      code: options.code,
      message: options.message,
      context:
        options.status === undefined
          ? (options.context ?? {})
          : { ...options.context, status: options.status },
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
    this.name = 'TransportError';
    this.status = options.status;
  }
}
