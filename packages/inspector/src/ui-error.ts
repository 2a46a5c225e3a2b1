/**
 * The errors of `switchboard ui`'s HTTP API: a code table beside the error class, the HTTP status
 * of each code, and the one place that turns whatever a route threw (ours, core's, the client's)
 * into the `UiErrorBody` the page shows — by code, never by message text.
 */
import { SwitchboardError, type ValidationProblem } from '@switchboard/core';
import type { UiErrorBody, UiFieldError } from './ui-api.js';

/** Codes of the errors the UI's process raises itself. */
export const UiErrorCode = {
  /** The request has no token, or the wrong one. */
  TokenRequired: 'UI_TOKEN_REQUIRED',
  /** The `Host` header is not this server's loopback address (DNS rebinding). */
  HostRefused: 'UI_HOST_REFUSED',
  /** The request comes from another origin (another site in the same browser). */
  OriginRefused: 'UI_ORIGIN_REFUSED',
  /** No route or file at that path. */
  NotFound: 'UI_NOT_FOUND',
  /** The path exists, not with that method. */
  MethodNotAllowed: 'UI_METHOD_NOT_ALLOWED',
  /** The body is not the JSON the route takes. */
  BadRequest: 'UI_BAD_REQUEST',
  /** The body is larger than the API takes. */
  BodyTooLarge: 'UI_BODY_TOO_LARGE',
  /** No server of that name in this session. */
  UnknownServer: 'UI_UNKNOWN_SERVER',
  /** The server has no tool of that name (or is not connected). */
  UnknownTool: 'UI_UNKNOWN_TOOL',
  /** No call of that id (or it was dropped from the history). */
  UnknownCall: 'UI_UNKNOWN_CALL',
  /** No question of that id is waiting (answered, withdrawn or never asked). */
  UnknownPending: 'UI_UNKNOWN_PENDING',
  /** A server of that name is already in the session. */
  ServerExists: 'UI_SERVER_EXISTS',
  /** A configured server cannot be removed from the page (edit the config file). */
  ServerNotRemovable: 'UI_SERVER_NOT_REMOVABLE',
  /** The request needs the server connected. */
  ServerNotConnected: 'UI_SERVER_NOT_CONNECTED',
  /** The server cannot sign in with OAuth (not remote, or auth off). */
  SignInUnavailable: 'UI_SIGN_IN_UNAVAILABLE',
  /** The selection dataset folder cannot be read. */
  DatasetInvalid: 'UI_DATASET_INVALID',
  /** The page's files are not there (the package was built without them). */
  PageMissing: 'UI_PAGE_MISSING',
  /** No MCP App view of that id (closed, or replaced by newer ones). */
  UnknownApp: 'UI_UNKNOWN_APP',
  /** The call has no app to show (it has not ended with a result). */
  AppUnavailable: 'UI_APP_UNAVAILABLE',
  /** Anything else: a bug of ours; the process keeps serving. */
  Internal: 'UI_INTERNAL',
} as const;

/** A code of a {@link UiError}. */
export type UiErrorCode = (typeof UiErrorCode)[keyof typeof UiErrorCode];

/** The HTTP status of each of our codes. */
const uiErrorStatus: Record<UiErrorCode, number> = {
  UI_TOKEN_REQUIRED: 403,
  UI_HOST_REFUSED: 403,
  UI_ORIGIN_REFUSED: 403,
  UI_NOT_FOUND: 404,
  UI_METHOD_NOT_ALLOWED: 405,
  UI_BAD_REQUEST: 400,
  UI_BODY_TOO_LARGE: 413,
  UI_UNKNOWN_SERVER: 404,
  UI_UNKNOWN_TOOL: 404,
  UI_UNKNOWN_CALL: 404,
  UI_UNKNOWN_PENDING: 404,
  UI_SERVER_EXISTS: 409,
  UI_SERVER_NOT_REMOVABLE: 409,
  UI_SERVER_NOT_CONNECTED: 409,
  UI_SIGN_IN_UNAVAILABLE: 409,
  UI_DATASET_INVALID: 400,
  UI_PAGE_MISSING: 503,
  UI_UNKNOWN_APP: 404,
  UI_APP_UNAVAILABLE: 409,
  UI_INTERNAL: 500,
};

/**
 * The HTTP status of codes raised below the UI (core, client, CLI) that a route passes on. Any
 * other code is a 502 (a server failed) when it is a SwitchboardError, a 500 when it is not.
 */
const passedOnStatus: Record<string, number> = {
  VALIDATION_FAILED: 422,
  // An MCP App's tool has no HTML app, or the app asked for what it may not.
  APP_NOT_FOUND: 404,
  APP_REQUEST_REFUSED: 403,
  CLI_USAGE: 400,
  INVALID_ARGUMENT: 400,
  CONFIG_INVALID: 400,
  SERVER_NOT_FOUND: 404,
  TOOL_NOT_FOUND: 404,
  RESOURCE_NOT_FOUND: 404,
  PROMPT_NOT_FOUND: 404,
  SERVER_EXISTS: 409,
  APPROVAL_DENIED: 403,
  NEEDS_AUTH: 401,
};

/** Options of a {@link UiError}. */
export interface UiErrorOptions {
  code: UiErrorCode;
  /** What went wrong, where, and what to do. Never a secret. */
  message: string;
  context?: Record<string, unknown>;
  /** Argument errors of a call form. */
  fields?: UiFieldError[];
  cause?: unknown;
}

/** An error of the UI's API, with the HTTP status of its code. */
export class UiError extends SwitchboardError {
  readonly status: number;
  readonly fields: UiFieldError[] | undefined;

  constructor(options: UiErrorOptions) {
    super({
      code: options.code,
      message: options.message,
      ...(options.context ? { context: options.context } : {}),
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
    this.name = 'UiError';
    this.status = uiErrorStatus[options.code];
    this.fields = options.fields;
  }
}

/** The status and body of the answer to a request that failed with `error`. */
export function toUiErrorAnswer(
  error: unknown,
  redact: (text: string) => string,
): { status: number; body: UiErrorBody } {
  if (error instanceof UiError) {
    return {
      status: error.status,
      body: {
        error: {
          code: error.code,
          message: redact(error.message),
          ...(error.fields ? { fields: error.fields.map((field) => redactField(field, redact)) } : {}),
        },
      },
    };
  }
  if (SwitchboardError.isInstance(error)) {
    const fields = fieldsOf(error);
    return {
      status: passedOnStatus[error.code] ?? 502,
      body: {
        error: {
          code: error.code,
          message: redact(error.message),
          ...(fields ? { fields: fields.map((field) => redactField(field, redact)) } : {}),
        },
      },
    };
  }
  return {
    status: uiErrorStatus[UiErrorCode.Internal],
    body: {
      error: {
        code: UiErrorCode.Internal,
        message: redact(
          `switchboard ui failed unexpectedly: ${error instanceof Error ? error.message : String(error)}. The process keeps serving; run with --verbose to see more.`,
        ),
      },
    },
  };
}

function redactField(field: UiFieldError, redact: (text: string) => string): UiFieldError {
  return { path: field.path, message: redact(field.message) };
}

/**
 * The argument errors of core's validator (`VALIDATION_FAILED`, its problems in `context`), one
 * per field: the JSON Pointer of the argument and the problem in words.
 */
function fieldsOf(error: SwitchboardError): UiFieldError[] | undefined {
  if (error.code !== 'VALIDATION_FAILED') return undefined;
  const problems = error.context.problems;
  if (!Array.isArray(problems)) return undefined;
  return problems
    .filter((problem): problem is ValidationProblem => typeof problem?.pointer === 'string')
    .map((problem) => ({ path: problem.pointer, message: problem.message }));
}
