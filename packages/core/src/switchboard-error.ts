/**
 * Every error Switchboard raises locally (as opposed to JSON-RPC errors that come over the wire)
 * is a `SwitchboardError`: a string `code`, structured `context` and an optional `cause`.
 */

// A global symbol, not a class identity check: two copies of @switchboard/core in one process (a
// common result of nested node_modules) must still recognise each other's errors.
const marker = Symbol.for('switchboard.error');

/** Codes of local errors. Open-ended: packages above core add their own. */
export type SwitchboardErrorCode =
  | 'INVALID_ARGUMENT'
  | 'INVALID_TOOL_NAME'
  | 'INVALID_SCHEMA'
  | 'TOOL_NOT_FOUND'
  | 'TOOL_CONFLICT'
  | 'VALIDATION_FAILED'
  | 'APPROVAL_DENIED'
  | 'CONFIG_INVALID'
  | 'SERVER_NOT_FOUND'
  | 'CONNECTION_FAILED'
  | 'TIMEOUT'
  | 'CANCELLED'
  | 'TRANSPORT_ERROR'
  | 'SERVER_ERROR'
  | (string & {});

/** Options of a {@link SwitchboardError}. */
export interface SwitchboardErrorOptions {
  /** Machine-readable code, e.g. `TOOL_NOT_FOUND`. */
  code: SwitchboardErrorCode;
  /** Human-readable message: what failed, where, and what to do. */
  message: string;
  /** Structured facts about the failure (server, tool, file, path...). Never secrets. */
  context?: Record<string, unknown>;
  /** The underlying error, if any. */
  cause?: unknown;
}

/** Base class of all local Switchboard errors. */
export class SwitchboardError extends Error {
  readonly code: SwitchboardErrorCode;
  readonly context: Record<string, unknown>;

  constructor(options: SwitchboardErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SwitchboardError';
    this.code = options.code;
    this.context = options.context ?? {};
    Object.defineProperty(this, marker, { value: true });
  }

  /** True for any SwitchboardError, including one thrown by another copy of this package. */
  static isInstance(error: unknown): error is SwitchboardError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }

  /** True when `error` is a SwitchboardError with the given code. */
  static hasCode(error: unknown, code: SwitchboardErrorCode): error is SwitchboardError {
    return SwitchboardError.isInstance(error) && error.code === code;
  }

  /** A plain-object form for logs and JSON responses. */
  toJSON(): { name: string; code: string; message: string; context: Record<string, unknown> } {
    return { name: this.name, code: this.code, message: this.message, context: this.context };
  }
}
