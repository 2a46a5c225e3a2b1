/**
 * Sealing of the `requestState` a multi-round call (2026-07-28) hands the client: the SDK's
 * HMAC codec (`createRequestStateCodec`) over what the server needs on the retry — the method and
 * target it was minted for, the parked run's id, or the tool's own state. A retry with state that
 * fails the check, expired, or was minted for another call gets -32602 before anything runs.
 */
import { randomBytes } from 'node:crypto';
import { createRequestStateCodec, type RequestStateCodec } from '@modelcontextprotocol/server';
import { ServerError, ServerErrorCode } from '../errors/server-error.js';

/** What a sealed state holds. */
export interface SealedState {
  /** The method it was minted for. */
  m: string;
  /** The tool name, prompt name or URI it was minted for. */
  t: string;
  /** A parked run's id (a tool suspended in `elicit`/`sample`/`listRoots`). */
  r?: string;
  /** The `requestState` the tool (or prompt) returned itself. */
  s?: string;
}

/** Options of the seal (`createMcpServer({ requestState })`). */
export interface RequestStateOptions {
  /**
   * HMAC key, at least 32 bytes. Every process that may receive a retry needs the same key.
   * @default 32 random bytes per process
   */
  key?: string | Uint8Array;
  /** How long a minted state (and a parked run) stays valid, in seconds. @default 600 */
  ttlSeconds?: number;
}

/** Seals and opens `requestState`. */
export class RequestStateSeal {
  readonly #codec: RequestStateCodec<SealedState>;
  /** Validity of a state, ms (parked runs expire with it). */
  readonly ttlMs: number;

  constructor(options: RequestStateOptions = {}) {
    const ttlSeconds = options.ttlSeconds ?? 600;
    try {
      this.#codec = createRequestStateCodec<SealedState>({ key: options.key ?? randomBytes(32), ttlSeconds });
    } catch (error) {
      throw new ServerError({
        code: ServerErrorCode.ConfigInvalid,
        message: `createMcpServer: requestState.key must be at least 32 bytes (${(error as Error).message}).`,
        cause: error,
      });
    }
    this.ttlMs = ttlSeconds * 1000;
  }

  /** Seals `state` into the wire string. */
  seal(state: SealedState): Promise<string> {
    return this.#codec.mint(state);
  }

  /** Opens a retry's state; rejects with -32602 when it fails the check or belongs to another call. */
  async open(token: unknown, method: string, target: string): Promise<SealedState> {
    if (typeof token !== 'string') {
      throw invalidState(`"requestState" must be the string this server returned, not ${typeof token}`);
    }
    let state: SealedState;
    try {
      // The context argument only matters for codecs with a `bind` callback, which this one has not.
      state = await this.#codec.verify(token, undefined as never);
    } catch (error) {
      throw invalidState(
        `"requestState" failed its integrity check (${(error as Error).message}): it was altered, expired, or minted by another server`,
      );
    }
    if (state.m !== method || state.t !== target) {
      throw invalidState(
        `"requestState" was minted for ${state.m} "${state.t}", not for ${method} "${target}"`,
      );
    }
    return state;
  }
}

function invalidState(why: string): ServerError {
  return new ServerError({
    code: ServerErrorCode.RequestStateInvalid,
    message: `Invalid requestState: ${why}. Retry the request without requestState and inputResponses to start over.`,
    data: { reason: 'invalid_request_state' },
  });
}
