/**
 * The one builder of a tool's context, for every era and transport: a 2025 session, 2025
 * stateless HTTP, a 2026-07-28 request, stdio, REST and `callTool` all make their context here.
 * Progress and logs go out on the channel of the request the call is answering (logs filtered by
 * the level the era defines), and nowhere once the call was answered. A suspended 2026-07-28 run
 * sends nothing while parked; once a retry resumes it, its progress and logs go out on the
 * retry's stream with the retry's `progressToken` and log level (`follow`). Progress that does
 * not increase (the spec requires it to) is dropped. Client input goes through the channel the
 * caller chose (see `client-input-channel.ts`).
 */
import type {
  ClientCapabilities,
  CreateMessageResult,
  ElicitResult,
  ListRootsResult,
  LoggingLevel,
  ProgressToken,
  RequestId,
} from '@modelcontextprotocol/server';
import { type CallAbort, CallSignalCarrier } from '../cancellation/call-abort.js';
import { passesLogLevel } from '../protocol/logging-levels.js';
import type { ProtocolEra } from '../protocol/protocol-versions.js';
import type { InboundRequest } from '../request/inbound-request.js';
import { principalNamedBy } from '../request/request-auth.js';
import type { ClientInputChannel } from './client-input-channel.js';
import type { ToolContext } from './define-tool.js';

/** What a context is built from. */
export interface ToolContextScope {
  request: InboundRequest;
  /** How `elicit`, `sample` and `listRoots` reach the client. */
  inputs: ClientInputChannel;
  /** The answers of a retried multi-round call, when there are any. */
  inputResponses?: Record<string, unknown>;
  /** The tool's own `requestState` on such a retry (after its integrity check). */
  requestState?: string;
  /** Turns the call into a task (when the tool and the client allow it). @default does nothing */
  continueAsTask?: () => Promise<void>;
}

const goOn = () => Promise.resolve();

const noClientCapabilities: ClientCapabilities = Object.freeze({});

/** The progress token a request asked for, if any. */
function progressTokenOf(request: InboundRequest): ProgressToken | undefined {
  return (request.params?._meta as { progressToken?: ProgressToken } | undefined)?.progressToken;
}

/** The level a request's logs must reach: the era decides where the client said so. */
function logThreshold(request: InboundRequest): LoggingLevel | undefined | null {
  if (request.era === 'modern') return request.envelope?.logLevel ?? null;
  return request.session?.logLevel;
}

/**
 * A tool's context. A class, not an object literal: a literal with a `signal` getter costs more
 * than the whole call of a simple tool. Its channels are own arrow functions, so a tool may
 * destructure them or copy the context with spread.
 */
export class ToolCallContext extends CallSignalCarrier implements ToolContext {
  readonly requestId: RequestId;
  readonly era: ProtocolEra;
  readonly clientCapabilities: ClientCapabilities;
  sessionId?: string;
  principal?: string;
  taskRequest?: Record<string, unknown>;
  inputResponses?: Record<string, unknown>;
  requestState?: string;
  readonly progress: ToolContext['progress'];
  readonly log: ToolContext['log'];
  readonly elicit: ToolContext['elicit'];
  readonly sample: ToolContext['sample'];
  readonly listRoots: ToolContext['listRoots'];
  readonly closeResponseStream: () => void;
  readonly continueAsTask: () => Promise<void>;

  /** The request whose channel progress and logs go to; undefined while the run is parked. */
  #answering: InboundRequest | undefined;
  #progressToken: ProgressToken | undefined;
  /** The last progress sent with the current token (the spec: each one must be greater). */
  #lastProgress = Number.NEGATIVE_INFINITY;

  constructor(scope: ToolContextScope, abort: CallAbort) {
    super(abort);
    const { request, inputs } = scope;
    this.requestId = request.id;
    this.era = request.era;
    this.clientCapabilities =
      request.era === 'modern'
        ? (request.envelope?.clientCapabilities ?? noClientCapabilities)
        : (request.session?.clientCapabilities ?? noClientCapabilities);
    const sessionId = request.session?.id;
    if (sessionId !== undefined) this.sessionId = sessionId;
    const principal = principalNamedBy(request.auth);
    if (principal !== undefined) this.principal = principal;
    const taskRequest = request.era === 'legacy' ? request.params?.task : undefined;
    if (typeof taskRequest === 'object' && taskRequest !== null && !Array.isArray(taskRequest))
      this.taskRequest = taskRequest as Record<string, unknown>;
    if (scope.inputResponses !== undefined) this.inputResponses = scope.inputResponses;
    if (scope.requestState !== undefined) this.requestState = scope.requestState;
    this.#answering = request;
    this.#progressToken = progressTokenOf(request);
    this.progress = async (progress, total, message) => {
      const answering = this.#answering;
      const progressToken = this.#progressToken;
      if (answering === undefined || progressToken === undefined || abort.aborted) return;
      // A value that does not increase is dropped: a relayed upstream whose retry legs count
      // again from the start must not make the client's progress go backwards.
      if (!(progress > this.#lastProgress)) return;
      this.#lastProgress = progress;
      answering.channel.notify({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: {
          progressToken,
          progress,
          ...(total !== undefined ? { total } : {}),
          ...(message !== undefined ? { message } : {}),
        },
      });
    };
    this.log = async (level, data, logger) => {
      const answering = this.#answering;
      if (answering === undefined || abort.aborted) return;
      const threshold = logThreshold(answering);
      // null: the era says no logs for this request (2026-07-28 without a logLevel).
      if (threshold === null || !passesLogLevel(level, threshold)) return;
      answering.channel.notify({
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level, data, ...(logger !== undefined ? { logger } : {}) },
      });
    };
    this.elicit = (params) =>
      inputs.ask({
        method: 'elicitation/create',
        params: params as Record<string, unknown>,
      }) as Promise<ElicitResult>;
    this.sample = (params) =>
      inputs.ask({
        method: 'sampling/createMessage',
        params: params as Record<string, unknown>,
      }) as Promise<CreateMessageResult>;
    this.listRoots = () => inputs.ask({ method: 'roots/list' }) as Promise<ListRootsResult>;
    this.closeResponseStream = () => this.#answering?.channel.closeStream?.();
    this.continueAsTask = scope.continueAsTask ?? goOn;
  }

  /**
   * Points progress and logs at the request the call answers now: a retry that resumed the
   * suspended run, or none once the call was answered (or while it is parked: the stream of the
   * round that answered input-required is closed, and a retry may never come).
   */
  follow(request: InboundRequest | undefined): void {
    this.#answering = request;
    this.#progressToken = request === undefined ? undefined : progressTokenOf(request);
    this.#lastProgress = Number.NEGATIVE_INFINITY;
  }
}

/** Builds the context of one tool call. */
export function createToolContext(scope: ToolContextScope): ToolCallContext {
  return new ToolCallContext(scope, scope.request.abort);
}

/**
 * A call's context, built when something first needs it. Building one (six channels and the
 * signal carrier's property) took 4–5 µs of the server's 60 µs on a 2026-07-28 echo call here
 * (the server bench, with the context left out and put back in paired rounds), and a tool whose
 * `execute` declares only its arguments never reads it. The run holds this handle: `follow`
 * before the context exists only records where progress would go, and `forTool` gives a tool that
 * declares a second parameter the context itself, any other a stand-in that builds it on first
 * touch: such a tool may still reach it through `arguments` or a rest parameter.
 */
export class ToolContextHandle {
  readonly #scope: ToolContextScope;
  #context: ToolCallContext | undefined;
  #followed = false;
  #following: InboundRequest | undefined;

  constructor(scope: ToolContextScope) {
    this.#scope = scope;
  }

  /** The context (built now if it was not yet). */
  get context(): ToolCallContext {
    if (this.#context === undefined) {
      this.#context = createToolContext(this.#scope);
      if (this.#followed) this.#context.follow(this.#following);
    }
    return this.#context;
  }

  /** `ToolCallContext.follow`, kept for the context until it is built. */
  follow(request: InboundRequest | undefined): void {
    if (this.#context !== undefined) {
      this.#context.follow(request);
      return;
    }
    this.#followed = true;
    this.#following = request;
  }

  /** What `execute` gets as its context: the context, or a stand-in that builds it when touched. */
  forTool(execute: (...args: never[]) => unknown): ToolContext {
    if (this.#context !== undefined || execute.length >= 2) return this.context;
    return new Proxy(new LazyContextTarget(this), lazyContextTraps) as unknown as ToolContext;
  }
}

/** The stand-in's target: only where the handle is; every trap answers from the built context. */
class LazyContextTarget {
  constructor(readonly handle: ToolContextHandle) {}
}

const built = (target: LazyContextTarget) => target.handle.context;

// The context's own properties are all configurable (class fields, the carrier's `signal`), so
// reporting them on a target that lacks them keeps the proxy invariants.
const lazyContextTraps: ProxyHandler<LazyContextTarget> = {
  get: (target, key) => Reflect.get(built(target), key),
  set: (target, key, value) => Reflect.set(built(target), key, value),
  has: (target, key) => Reflect.has(built(target), key),
  ownKeys: (target) => Reflect.ownKeys(built(target)),
  getOwnPropertyDescriptor: (target, key) => Reflect.getOwnPropertyDescriptor(built(target), key),
  defineProperty: (target, key, descriptor) => Reflect.defineProperty(built(target), key, descriptor),
  deleteProperty: (target, key) => Reflect.deleteProperty(built(target), key),
  getPrototypeOf: (target) => Reflect.getPrototypeOf(built(target)),
};
