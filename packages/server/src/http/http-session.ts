/**
 * A 2025 HTTP session (`Mcp-Session-Id`): the session state plus its streams. Each POST with
 * requests gets a stream (SSE, or one JSON answer); messages a request causes (progress, logs,
 * elicitation) go on its stream, the rest on the session's GET stream. With SSE every event is
 * stored, so a client whose stream broke — or was closed on purpose (`closeResponseStream`,
 * SEP-1699) — resumes with `Last-Event-ID` on a GET and receives what it missed, then the rest.
 * With shared cluster state the events of POST streams are also logged there, so the resuming GET
 * may reach another replica: it replays the log and follows it until the stream's answers are in.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/server';
import type { ClusterLogEntry, StreamLogs } from '../cluster/cluster-state.js';
import { JsonRpcErrorCode } from '../errors/json-rpc-error-code.js';
import { supportsSsePriming } from '../protocol/protocol-versions.js';
import type { LegacySession, SessionOutlet } from '../session/legacy-session.js';
import { failure, failureOf, type GuardResult, writeJson } from './http-failure.js';
import { createMemoryEventStore, type MemoryEventStore } from './memory-event-store.js';
import { SseStream } from './sse-stream.js';

const standaloneStreamId = '_GET_stream';

/** One stream of the session: its requests, their answers, and where it is written now. */
interface SessionStream {
  /** The SSE sink attached now (a POST response, or a resuming GET); none while detached. */
  sink: SseStream | undefined;
  /** JSON mode: the POST response waiting for every answer. */
  json: ServerResponse | undefined;
  pending: Set<RequestId>;
  answers: JSONRPCMessage[];
}

/** Where a session's stream events are logged for other replicas. */
export interface SessionEventLog {
  cluster: StreamLogs;
  /** The session's key in the cluster (a digest of its id). */
  sessionKey: string;
  /** How long a log outlives its last event. */
  ttlMs: number;
  logger: { debug(fields: object, message: string): void };
}

/** Options of an {@link HttpSession}. */
export interface HttpSessionOptions {
  /** The session id. @default a random UUID */
  id?: string;
  retryMs: number;
  /** The principal the session is bound to (sealed ids). @default none */
  principal?: string;
  /** When the session was opened (sealed ids carry it). @default now */
  createdAt?: number;
  /** Log events of POST streams in the cluster, so another replica resumes them. @default none */
  log?: SessionEventLog;
}

/** A session and its streams. */
export class HttpSession implements SessionOutlet {
  readonly id: string;
  /** Set right after construction (the session needs this outlet first). */
  session!: LegacySession;
  readonly principal: string | undefined;
  readonly createdAt: number;
  readonly #store: MemoryEventStore = createMemoryEventStore();
  readonly #streams = new Map<string, SessionStream>();
  readonly #requestStream = new Map<RequestId, string>();
  readonly #retryMs: number;
  readonly #log: SessionEventLog | undefined;
  /** Streams whose events go to the cluster log (POST streams of this replica). */
  readonly #logged = new Set<string>();
  /** Remote resumptions running here (their tails stop when the session ends). */
  readonly #tails = new Set<AbortController>();
  #standalone: SseStream | undefined;

  constructor(options: HttpSessionOptions) {
    this.id = options.id ?? randomUUID();
    this.#retryMs = options.retryMs;
    this.principal = options.principal;
    this.createdAt = options.createdAt ?? Date.now();
    this.#log = options.log;
  }

  /** Whether events of this session may be resumed (priming sent, ids stored). */
  get resumable(): boolean {
    return supportsSsePriming(this.session.protocolVersion);
  }

  send(message: JSONRPCMessage, relatedRequestId?: RequestId): void {
    const streamId = relatedRequestId === undefined ? undefined : this.#requestStream.get(relatedRequestId);
    if (streamId !== undefined) {
      const stream = this.#streams.get(streamId);
      if (stream !== undefined && stream.json === undefined) {
        this.#write(streamId, stream.sink, message);
        return;
      }
    }
    // Unrelated messages, and related ones without an SSE stream (JSON mode), use the GET stream.
    this.#write(standaloneStreamId, this.#standalone, message);
  }

  /** Opens the stream of a POST carrying `requestIds`; `sse` false: one JSON answer. */
  openPostStream(response: ServerResponse, requestIds: RequestId[], sse: boolean): string {
    const streamId = randomUUID();
    const stream: SessionStream = {
      sink: undefined,
      json: undefined,
      pending: new Set(requestIds),
      answers: [],
    };
    for (const id of requestIds) this.#requestStream.set(id, streamId);
    this.#streams.set(streamId, stream);
    if (!sse) {
      stream.json = response;
      return streamId;
    }
    stream.sink = new SseStream(response, { 'mcp-session-id': this.id });
    if (this.resumable) {
      const primingId = this.#store.storeEvent(streamId, {});
      if (this.#log !== undefined) {
        this.#logged.add(streamId);
        // Logged too: the log exists from the start, so a resumption elsewhere knows the stream.
        this.#append(streamId, primingId, {});
      }
      stream.sink.prime(primingId, this.#retryMs);
    }
    // A client that drops the stream may resume it; until then its events are only stored.
    stream.sink.onClientClose(() => {
      if (this.#streams.get(streamId)?.sink === undefined) return;
      (this.#streams.get(streamId) as SessionStream).sink = undefined;
    });
    return streamId;
  }

  /** Delivers a request's final answer; the stream ends once all its requests are answered. */
  answer(requestId: RequestId, message: JSONRPCMessage | undefined): void {
    const streamId = this.#requestStream.get(requestId);
    if (streamId === undefined) return;
    this.#requestStream.delete(requestId);
    const stream = this.#streams.get(streamId);
    if (stream === undefined) return;
    stream.pending.delete(requestId);
    if (message !== undefined) {
      if (stream.json !== undefined) stream.answers.push(message);
      else this.#write(streamId, stream.sink, message);
    }
    if (stream.pending.size > 0) return;
    this.#streams.delete(streamId);
    this.#endLog(streamId);
    if (stream.json !== undefined) {
      const body = stream.answers.length === 1 ? stream.answers[0] : stream.answers;
      if (stream.answers.length === 0) stream.json.writeHead(202, ['mcp-session-id', this.id]).end();
      else writeJson(stream.json, 200, body, { 'mcp-session-id': this.id });
      return;
    }
    stream.sink?.end();
  }

  /** Closes a request's stream now (SEP-1699): the client reconnects with `Last-Event-ID`. */
  closeRequestStream(requestId: RequestId): void {
    const streamId = this.#requestStream.get(requestId);
    const stream = streamId === undefined ? undefined : this.#streams.get(streamId);
    if (stream?.sink === undefined || !this.resumable) return;
    const sink = stream.sink;
    stream.sink = undefined;
    sink.end();
  }

  /** Answers a GET: the standalone stream, or the resumption of a stream after `lastEventId`. */
  openGetStream(
    response: ServerResponse,
    lastEventId: string | undefined,
  ): GuardResult | Promise<GuardResult> {
    if (lastEventId !== undefined) return this.#resume(response, lastEventId);
    if (this.#standalone?.open) {
      return failure(
        409,
        JsonRpcErrorCode.TransportRefused,
        'Conflict: this session already has a GET stream open.',
      );
    }
    const sink = new SseStream(response, { 'mcp-session-id': this.id }, true);
    this.#standalone = sink;
    sink.onClientClose(() => {
      if (this.#standalone === sink) this.#standalone = undefined;
    });
    return { ok: true };
  }

  /** Ends the standalone GET stream (a drain): the client opens it again, on another replica. */
  endStandaloneStream(): void {
    this.#standalone?.end();
    this.#standalone = undefined;
  }

  /** Ends every stream (the session ended). */
  close(): void {
    for (const tail of this.#tails) tail.abort();
    this.#tails.clear();
    for (const streamId of this.#streams.keys()) this.#endLog(streamId);
    for (const stream of this.#streams.values()) {
      stream.sink?.end();
      if (stream.json !== undefined && !stream.json.headersSent) stream.json.writeHead(404).end();
    }
    this.#streams.clear();
    this.#requestStream.clear();
    this.#standalone?.end();
    this.#standalone = undefined;
  }

  #resume(response: ServerResponse, lastEventId: string): GuardResult | Promise<GuardResult> {
    const streamId = this.#store.streamOf(lastEventId);
    if (streamId === undefined) {
      return failure(
        400,
        JsonRpcErrorCode.TransportRefused,
        `Bad Request: Last-Event-ID "${lastEventId}" is not an event of this session.`,
      );
    }
    const stream = this.#streams.get(streamId);
    // A stream this replica never held (nor its events): another replica ran it; its log has them.
    if (stream === undefined && !this.#store.knows(lastEventId) && this.#log !== undefined) {
      return this.#resumeFromLog(response, streamId, lastEventId, this.#log);
    }
    if (stream?.sink?.open === true || (streamId === standaloneStreamId && this.#standalone?.open === true)) {
      return failure(
        409,
        JsonRpcErrorCode.TransportRefused,
        'Conflict: that stream already has a connection.',
      );
    }
    const sink = new SseStream(response, { 'mcp-session-id': this.id }, true);
    for (const { eventId, message } of this.#store.eventsAfter(lastEventId)) sink.write(message, eventId);
    if (streamId === standaloneStreamId) {
      this.#standalone = sink;
      sink.onClientClose(() => {
        if (this.#standalone === sink) this.#standalone = undefined;
      });
    } else if (stream !== undefined && stream.json === undefined) {
      // Requests of that stream are still running: the rest of their events come here.
      stream.sink = sink;
      sink.onClientClose(() => {
        if (stream.sink === sink) stream.sink = undefined;
      });
    } else {
      sink.end();
    }
    return { ok: true };
  }

  /**
   * Replays a stream another replica holds (or held) from the cluster log: what is stored after
   * `lastEventId`, then — while its calls still run there — each new event as it is appended,
   * until the stream's answers are all in (the `end` entry). The first read happens before any
   * byte is written, so an unreachable cluster is still answered 503.
   */
  async #resumeFromLog(
    response: ServerResponse,
    streamId: string,
    lastEventId: string,
    log: SessionEventLog,
  ): Promise<GuardResult> {
    const afterSeq = sequenceOf(lastEventId);
    if (afterSeq === undefined) {
      return failure(
        400,
        JsonRpcErrorCode.TransportRefused,
        `Bad Request: Last-Event-ID "${lastEventId}" is not an event of this session.`,
      );
    }
    const abort = new AbortController();
    const entries = log.cluster
      .readLog(`${log.sessionKey}:${streamId}`, afterSeq, { signal: abort.signal, follow: true })
      [Symbol.asyncIterator]();
    let first: IteratorResult<ClusterLogEntry>;
    try {
      first = await entries.next();
    } catch (error) {
      return failureOf(error);
    }
    if (first.done) {
      return failure(
        400,
        JsonRpcErrorCode.TransportRefused,
        `Bad Request: Last-Event-ID "${lastEventId}" is not an event of this session (or its stream expired).`,
      );
    }
    const sink = new SseStream(response, { 'mcp-session-id': this.id }, true);
    this.#tails.add(abort);
    sink.onClientClose(() => abort.abort());
    try {
      for (let next: IteratorResult<ClusterLogEntry> = first; !next.done; next = await entries.next()) {
        const entry = next.value;
        if ('end' in entry) break;
        if (Object.keys(entry.message).length > 0) sink.write(entry.message, `${streamId}_${entry.seq}`);
      }
    } catch (error) {
      log.logger.debug({ error: (error as Error).message }, 'resumed stream ended early');
    } finally {
      this.#tails.delete(abort);
      abort.abort();
      sink.end();
    }
    return { ok: true };
  }

  #write(streamId: string, sink: SseStream | undefined, message: JSONRPCMessage): void {
    const eventId = this.resumable ? this.#store.storeEvent(streamId, message) : undefined;
    if (eventId !== undefined && this.#logged.has(streamId)) this.#append(streamId, eventId, message);
    sink?.write(message, eventId);
  }

  /** Appends an event to the cluster log (in order: one connection carries a session's appends). */
  #append(streamId: string, eventId: string, message: JSONRPCMessage | Record<string, never>): void {
    const log = this.#log as SessionEventLog;
    const seq = sequenceOf(eventId) as number;
    log.cluster
      .appendLog(`${log.sessionKey}:${streamId}`, { seq, message }, log.ttlMs)
      .catch((error: unknown) => {
        // The live stream still gets the event; only a resumption elsewhere would miss it.
        log.logger.debug({ error: (error as Error).message }, 'stream event not logged in the cluster');
      });
  }

  /** Marks a logged stream complete, so a tail on another replica ends it too. */
  #endLog(streamId: string): void {
    if (!this.#logged.delete(streamId)) return;
    const log = this.#log as SessionEventLog;
    log.cluster
      .appendLog(`${log.sessionKey}:${streamId}`, { seq: this.#store.nextSequence(), end: true }, log.ttlMs)
      .catch(() => {});
  }
}

/** The sequence number in an event id (`<stream>_<n>`). */
function sequenceOf(eventId: string): number | undefined {
  const separator = eventId.lastIndexOf('_');
  const value = Number(eventId.slice(separator + 1));
  return separator > 0 && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}
