/**
 * Sealing of the `requestState` a multi-round call (2026-07-28) hands the client: the SDK's
 * HMAC codec (`createRequestStateCodec`) over what the server needs on the retry — the method and
 * target it was minted for, the parked run's id, or the tool's own state. A retry with state that
 * fails the check, expired, or was minted for another call gets -32602 before anything runs.
 * Several keys rotate like session keys: the first seals, every one opens. Behind a balancer the
 * state also names the replica that parked the run, so a retry reaching another one is relayed.
 */
import { randomBytes } from 'node:crypto';
import { createRequestStateCodec, type RequestStateCodec } from '@modelcontextprotocol/server';
import { ServerError, ServerErrorCode } from '../errors/server-error.js';

/** What a sealed state says about the call it belongs to. */
export interface SealedState {
  /** The method it was minted for. */
  method: string;
  /** The tool name, prompt name or URI it was minted for. */
  target: string;
  /** A parked run's id (a tool suspended in `elicit`/`sample`/`listRoots`). */
  runId?: string;
  /** The `requestState` the tool (or prompt) returned itself. */
  handlerState?: string;
  /** The replica holding the parked run (`runId`), where a replica id is configured. */
  replica?: string;
}

/**
 * The state as sealed: one-letter keys, since the token travels in every retry's body. Only this
 * file reads them; tokens minted by earlier versions (the same keys) still open.
 */
interface WireState {
  m: string;
  t: string;
  r?: string;
  s?: string;
  o?: string;
}

function toWire(state: SealedState): WireState {
  const wire: WireState = { m: state.method, t: state.target };
  if (state.runId !== undefined) wire.r = state.runId;
  if (state.handlerState !== undefined) wire.s = state.handlerState;
  if (state.replica !== undefined) wire.o = state.replica;
  return wire;
}

function fromWire(wire: WireState): SealedState {
  const state: SealedState = { method: wire.m, target: wire.t };
  if (typeof wire.r === 'string') state.runId = wire.r;
  if (typeof wire.s === 'string') state.handlerState = wire.s;
  if (typeof wire.o === 'string') state.replica = wire.o;
  return state;
}

/** Options of the seal (`createMcpServer({ requestState })`). */
export interface RequestStateOptions {
  /**
   * HMAC key, at least 32 bytes. Every process that may receive a retry needs the same key
   * (replicas: e.g. `deriveRequestStateKey(sessionKeys[0])`).
   * @default 32 random bytes per process
   */
  key?: string | Uint8Array;
  /**
   * Several HMAC keys for rotation: the first seals, every one opens (list the new key first,
   * drop the old one once its states expired). Replaces `key`; e.g.
   * `sessionKeys.map(deriveRequestStateKey)`.
   */
  keys?: ReadonlyArray<string | Uint8Array>;
  /** How long a minted state (and a parked run) stays valid, in seconds. @default 600 */
  ttlSeconds?: number;
}

/**
 * Seals and opens `requestState`: a typed codec over the SDK's (as its `RequestStateCodec<T>`),
 * whose callers see {@link SealedState} and never the wire keys.
 */
export class RequestStateSeal {
  /** One codec per key; the first seals. */
  readonly #codecs: ReadonlyArray<RequestStateCodec<WireState>>;
  /** Validity of a state, ms (parked runs expire with it). */
  readonly ttlMs: number;

  constructor(options: RequestStateOptions = {}) {
    const ttlSeconds = options.ttlSeconds ?? 600;
    if (options.keys !== undefined && (!Array.isArray(options.keys) || options.keys.length === 0)) {
      throw new ServerError({
        code: ServerErrorCode.ConfigInvalid,
        message:
          'createMcpServer: requestState.keys must be a non-empty array of keys of at least 32 bytes (the first seals, all open).',
      });
    }
    const keys = options.keys ?? [options.key ?? randomBytes(32)];
    this.#codecs = keys.map((key, index) => {
      try {
        return createRequestStateCodec<WireState>({ key, ttlSeconds });
      } catch (error) {
        throw new ServerError({
          code: ServerErrorCode.ConfigInvalid,
          message: `createMcpServer: requestState.${options.keys !== undefined ? `keys[${index}]` : 'key'} must be at least 32 bytes (${(error as Error).message}).`,
          cause: error,
        });
      }
    });
    this.ttlMs = ttlSeconds * 1000;
  }

  /** Seals `state` into the wire string. */
  seal(state: SealedState): Promise<string> {
    return (this.#codecs[0] as RequestStateCodec<WireState>).mint(toWire(state));
  }

  /** The state sealed in `token` under any of the keys; rejects with the codec's reason. */
  async #verify(token: string): Promise<SealedState> {
    let failure: unknown;
    for (const codec of this.#codecs) {
      try {
        // The context argument only matters for codecs with a `bind` callback, which these have not.
        return fromWire(await codec.verify(token, undefined as never));
      } catch (error) {
        failure = error;
        // Only a MAC mismatch means "another key may open it"; expired or malformed is final.
        if ((error as Error).message !== 'mac') break;
      }
    }
    throw failure;
  }

  /** The replica a retry's state names as the holder of its parked run; undefined when none or not ours. */
  async ownerOf(token: unknown, method: string): Promise<{ replica: string; target: string } | undefined> {
    if (typeof token !== 'string') return undefined;
    try {
      const state = await this.#verify(token);
      return state.method === method && state.runId !== undefined && state.replica !== undefined
        ? { replica: state.replica, target: state.target }
        : undefined;
    } catch {
      // Refused with the full reason where the retry is served.
      return undefined;
    }
  }

  /** Opens a retry's state; rejects with -32602 when it fails the check or belongs to another call. */
  async open(token: unknown, method: string, target: string): Promise<SealedState> {
    if (typeof token !== 'string') {
      throw invalidState(`"requestState" must be the string this server returned, not ${typeof token}`);
    }
    let state: SealedState;
    try {
      state = await this.#verify(token);
    } catch (error) {
      throw invalidState(
        `"requestState" failed its integrity check (${(error as Error).message}): it was altered, expired, or minted by another server`,
      );
    }
    if (state.method !== method || state.target !== target) {
      throw invalidState(
        `"requestState" was minted for ${state.method} "${state.target}", not for ${method} "${target}"`,
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
