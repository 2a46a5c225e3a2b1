/**
 * The 2025 sessions of an HTTP server: `initialize` opens one (`Mcp-Session-Id`), later POSTs are
 * served on it, GET opens its stream (or resumes one), DELETE ends it; idle sessions are swept.
 * Messages are dispatched through the same dispatcher as everything else, with the session.
 *
 * With session keys the id is the sealed session state (`session-sealer.ts`), bound to the
 * caller's principal: a replica that never saw the id opens it and re-creates the session, after
 * one revocation lookup in the cluster state (a DELETE on any replica revokes it everywhere).
 * Without keys, ids are random and known to this process only, as they always were.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JSONRPCMessage, JSONRPCRequest, JSONRPCResponse } from '@modelcontextprotocol/server';
import { CallAbort } from '../cancellation/call-abort.js';
import type { ClusterState } from '../cluster/cluster-state.js';
import { principalOf } from '../cluster/principal.js';
import type { SealedSessionState, SessionSealer } from '../cluster/session-sealer.js';
import type { RequestDispatcher } from '../dispatch/request-dispatcher.js';
import { JsonRpcErrorCode } from '../errors/json-rpc-error-code.js';
import { isNotificationMessage, isRequestMessage } from '../protocol/json-rpc-message.js';
import { legacyProtocolVersions, negotiateLegacyVersion } from '../protocol/protocol-versions.js';
import type { RequestAuth } from '../request/request-auth.js';
import type { McpServer } from '../server/mcp-server.js';
import { isPromiseLike } from '../tools/to-call-tool-result.js';
import { type AnswerForwarding, forwardClientAnswer } from './forward-client-answer.js';
import { failure, failureOf, type GuardResult, writeFailure } from './http-failure.js';
import { HttpSession, type SessionEventLog } from './http-session.js';
import { headerValue } from './validate-standard-headers.js';

/** Options of {@link HttpSessions}. */
export interface HttpSessionsOptions {
  retryIntervalMs: number;
  /** Sessions idle longer are closed (0: never). */
  idleTimeoutMs: number;
  logger: McpServer['logger'];
  /** Shared replica state (revocation, stream logs, forwarded responses). */
  cluster: ClusterState;
  /** Seals session ids (replicas); none: random ids. */
  sealer?: SessionSealer;
  /** Longest life of a sealed id. */
  maxAgeMs: number;
  /** This replica, named in server→client request ids. */
  replicaId?: string;
}

type Found = GuardResult<{ session: HttpSession }>;

/** A session's key in the cluster state: a digest (ids are long, and keys need not reveal them). */
function sessionKeyOf(id: string): string {
  return createHash('sha256').update(id).digest('hex').slice(0, 32);
}

function notFound(id: string): Found {
  // One answer for unknown, expired, revoked, tampered and foreign ids: nothing to tell them apart.
  return failure(
    404,
    JsonRpcErrorCode.SessionNotFound,
    `Session not found: "${id.length > 48 ? `${id.slice(0, 48)}…` : id}" (expired or closed); initialize a new session.`,
  );
}

/** The sessions of one HTTP server. */
export class HttpSessions {
  readonly #server: McpServer;
  readonly #dispatcher: RequestDispatcher;
  readonly #options: HttpSessionsOptions;
  readonly #sessions = new Map<string, HttpSession>();
  readonly #sweeper: NodeJS.Timeout | undefined;
  readonly #stopForwarded: () => void;
  readonly #stopSubscriptions: () => void;
  readonly #forwarding: AnswerForwarding;

  constructor(server: McpServer, options: HttpSessionsOptions) {
    this.#server = server;
    this.#dispatcher = server.dispatcher;
    this.#options = options;
    this.#forwarding = { cluster: options.cluster, replicaId: options.replicaId, logger: options.logger };
    const idle = options.idleTimeoutMs;
    // Clients that vanish without DELETE must not hold sessions (and their memory) forever.
    this.#sweeper =
      idle > 0
        ? setInterval(() => this.#sweep(), Math.max(50, Math.min(idle / 2, 60_000))).unref()
        : undefined;
    // A client's answer to one of our requests, POSTed to another replica, is forwarded here.
    this.#stopForwarded = options.cluster.onForwardedResponse(({ sessionId, message }) => {
      this.#sessions.get(sessionId)?.session.resolveResponse(message as never);
    });
    // A 2025 subscription made through another replica: this one may hold the session's GET stream.
    this.#stopSubscriptions = options.cluster.onRemoteSubscription(({ sessionId, uri, subscribed }) => {
      this.#sessions.get(sessionId)?.session.subscriptions.apply(uri, subscribed);
    });
  }

  /** Open sessions. */
  get size(): number {
    return this.#sessions.size;
  }

  /** Serves a 2025 POST (one message or a batch) on its session, or opens one with `initialize`. */
  post(
    request: IncomingMessage,
    response: ServerResponse,
    messages: JSONRPCMessage[],
    sse: boolean,
    auth?: RequestAuth,
  ): Promise<void> | undefined {
    const found = this.#sessionOf(request, messages, auth);
    if (isPromiseLike(found))
      return found.then((settled) => this.#serve(settled, response, messages, sse, auth));
    return this.#serve(found, response, messages, sse, auth);
  }

  /** A GET: the session's stream, or a resumed one (`Last-Event-ID`). */
  get(request: IncomingMessage, response: ServerResponse, auth?: RequestAuth): Promise<void> | undefined {
    const open = (found: Found): Promise<void> | undefined => {
      if (!found.ok) {
        writeFailure(response, found);
        return undefined;
      }
      const opened = found.session.openGetStream(response, headerValue(request.headers, 'last-event-id'));
      if (!isPromiseLike(opened)) {
        if (!opened.ok) writeFailure(response, opened);
        return undefined;
      }
      return opened.then((settled) => {
        if (!settled.ok) writeFailure(response, settled);
      });
    };
    const found = this.#existing(request, auth);
    return isPromiseLike(found) ? found.then(open) : open(found);
  }

  /** A DELETE: ends the session (everywhere, with sealed ids: it is revoked in the cluster). */
  delete(request: IncomingMessage, response: ServerResponse, auth?: RequestAuth): Promise<void> | undefined {
    const end = (found: Found): Promise<void> | undefined => {
      if (!found.ok) {
        writeFailure(response, found);
        return undefined;
      }
      const session = found.session;
      if (this.#options.sealer === undefined) {
        this.#end(session, 'The client ended the session.');
        response.writeHead(200).end();
        return undefined;
      }
      const ttlMs = Math.max(1000, session.createdAt + this.#options.maxAgeMs - Date.now());
      return this.#options.cluster.revokeSession(sessionKeyOf(session.id), ttlMs).then(
        () => {
          this.#end(session, 'The client ended the session.');
          response.writeHead(200).end();
        },
        (error: unknown) => writeFailure(response, failureOf(error)),
      );
    };
    const found = this.#existing(request, auth);
    return isPromiseLike(found) ? found.then(end) : end(found);
  }

  /** Ends the standalone GET streams of every session, keeping the sessions (a drain). */
  endStandaloneStreams(): void {
    for (const session of this.#sessions.values()) session.endStandaloneStream();
  }

  /** Ends every session (shutdown). */
  close(): void {
    if (this.#sweeper !== undefined) clearInterval(this.#sweeper);
    this.#stopForwarded();
    this.#stopSubscriptions();
    for (const session of [...this.#sessions.values()]) this.#end(session, 'The server is shutting down.');
  }

  #serve(
    found: Found,
    response: ServerResponse,
    messages: JSONRPCMessage[],
    sse: boolean,
    auth: RequestAuth | undefined,
  ): Promise<void> | undefined {
    if (!found.ok) {
      writeFailure(response, found);
      return undefined;
    }
    const http = found.session;
    const session = http.session;
    const requests: JSONRPCRequest[] = [];
    for (const message of messages) {
      if (isRequestMessage(message)) requests.push(message);
      else if (isNotificationMessage(message)) {
        if (message.method === 'notifications/cancelled') {
          const params = message.params as { requestId?: string | number; reason?: unknown } | undefined;
          if (params?.requestId !== undefined) session.cancel(params.requestId, params.reason);
        }
      } else if (!session.resolveResponse(message as never)) {
        // A response to a request another replica sent (its id names that replica) goes there.
        forwardClientAnswer(this.#forwarding, http.id, message as JSONRPCResponse);
      }
    }
    if (requests.length === 0) {
      response.writeHead(202, ['mcp-session-id', http.id]).end();
      return undefined;
    }
    http.openPostStream(
      response,
      requests.map((message) => message.id),
      sse,
    );
    const settled: Array<Promise<void>> = [];
    for (const message of requests) {
      const answer = this.#dispatcher.dispatch({
        id: message.id,
        method: message.method,
        params: message.params as Record<string, unknown> | undefined,
        era: 'legacy',
        transport: 'http',
        session,
        abort: new CallAbort(),
        ...(auth !== undefined ? { auth } : {}),
        channel: {
          notify: (notification) => http.send(notification, message.id),
          closeStream: () => http.closeRequestStream(message.id),
        },
      });
      if (isPromiseLike(answer)) settled.push(answer.then((value) => http.answer(message.id, value)));
      else http.answer(message.id, answer);
    }
    return settled.length === 0 ? undefined : Promise.all(settled).then(() => undefined);
  }

  #existing(request: IncomingMessage, auth: RequestAuth | undefined): Found | Promise<Found> {
    const id = headerValue(request.headers, 'mcp-session-id');
    if (id === undefined) {
      return failure(
        400,
        JsonRpcErrorCode.TransportRefused,
        'Bad Request: the Mcp-Session-Id header is required; send initialize first.',
      );
    }
    const version = headerValue(request.headers, 'mcp-protocol-version');
    const versionOk = version === undefined || legacyProtocolVersions.includes(version);
    const sealer = this.#options.sealer;
    if (sealer === undefined) {
      const session = this.#sessions.get(id);
      if (session === undefined) return notFound(id);
      if (!versionOk) return badVersion(version as string);
      session.session.lastSeen = Date.now();
      return { ok: true, session };
    }
    const principal = principalOf(auth);
    const local = this.#sessions.get(id);
    let restored: SealedSessionState | undefined;
    if (local !== undefined) {
      if (local.principal !== principal) return notFound(id);
    } else {
      restored = sealer.open(id, principal);
      if (restored === undefined) return notFound(id);
    }
    const createdAt = local?.createdAt ?? (restored as SealedSessionState).createdAt;
    if (createdAt + this.#options.maxAgeMs < Date.now()) return notFound(id);
    if (!versionOk) return badVersion(version as string);
    // One lookup per session request: a DELETE on any replica revoked it everywhere.
    const cluster = this.#options.cluster;
    return cluster.isSessionRevoked(sessionKeyOf(id)).then(
      (revoked): Found | Promise<Found> => {
        const live = this.#sessions.get(id);
        if (revoked) {
          if (live !== undefined) this.#end(live, 'The session was ended on another replica.');
          return notFound(id);
        }
        if (live !== undefined) {
          live.session.lastSeen = Date.now();
          return { ok: true, session: live };
        }
        const session = this.#restore(id, principal, restored as SealedSessionState);
        if (!cluster.shared) return { ok: true, session };
        // Re-created here: its resource subscriptions were made elsewhere (one read, once).
        return cluster.subscriptionsOf(sessionKeyOf(id)).then(
          (uris): Found => {
            for (const uri of uris) session.session.subscriptions.apply(uri, true);
            return { ok: true, session };
          },
          (error: unknown) => {
            this.#end(session, 'The shared state could not be read.');
            return failureOf(error);
          },
        );
      },
      (error: unknown) => failureOf(error),
    );
  }

  #sessionOf(
    request: IncomingMessage,
    messages: JSONRPCMessage[],
    auth: RequestAuth | undefined,
  ): Found | Promise<Found> {
    const opening = messages.find(
      (message): message is JSONRPCRequest => isRequestMessage(message) && message.method === 'initialize',
    );
    if (opening === undefined || headerValue(request.headers, 'mcp-session-id') !== undefined) {
      const found = this.#existing(request, auth);
      const withId = (settled: Found): Found =>
        settled.ok || messages.length !== 1
          ? settled
          : { ...settled, id: (messages[0] as { id?: string | number }).id ?? null };
      return isPromiseLike(found) ? found.then(withId) : withId(found);
    }
    const sealer = this.#options.sealer;
    if (sealer === undefined) return { ok: true, session: this.#open({}) };
    const params = (opening.params ?? {}) as {
      protocolVersion?: unknown;
      capabilities?: unknown;
      clientInfo?: unknown;
    };
    const principal = principalOf(auth);
    const createdAt = Date.now();
    const id = sealer.seal(
      {
        protocolVersion: negotiateLegacyVersion(params.protocolVersion),
        clientCapabilities: isObject(params.capabilities) ? params.capabilities : {},
        ...(isObject(params.clientInfo) ? { clientInfo: params.clientInfo as never } : {}),
        createdAt,
      },
      principal,
    );
    return { ok: true, session: this.#open({ id, principal, createdAt }) };
  }

  /** A new session of this process (`initialize` here, or a sealed one re-created). */
  #open(
    identity: { id?: string; principal?: string; createdAt?: number },
    restored?: SealedSessionState,
  ): HttpSession {
    const log: SessionEventLog | undefined =
      identity.id !== undefined && this.#options.cluster.shared
        ? {
            cluster: this.#options.cluster,
            sessionKey: sessionKeyOf(identity.id),
            ttlMs: this.#options.idleTimeoutMs > 0 ? this.#options.idleTimeoutMs : 30 * 60 * 1000,
            logger: this.#options.logger,
          }
        : undefined;
    const http = new HttpSession({
      retryMs: this.#options.retryIntervalMs,
      ...identity,
      ...(log !== undefined ? { log } : {}),
    });
    http.session = this.#server.createSession(http, http.id, {
      ...(this.#options.replicaId !== undefined ? { replicaId: this.#options.replicaId } : {}),
      ...(restored !== undefined
        ? {
            restored: {
              protocolVersion: restored.protocolVersion,
              clientCapabilities: restored.clientCapabilities,
              ...(restored.clientInfo !== undefined ? { clientInfo: restored.clientInfo } : {}),
            },
          }
        : {}),
    });
    this.#sessions.set(http.id, http);
    http.session.onClose(() => {
      this.#sessions.delete(http.id);
      http.close();
    });
    if (log !== undefined) {
      const sessionKey = log.sessionKey;
      http.session.subscriptions.onChange = (uri, subscribed) => {
        this.#options.cluster
          .changeSubscription(sessionKey, { sessionId: http.id, uri, subscribed }, this.#options.maxAgeMs)
          .catch((error: unknown) =>
            this.#options.logger.warn(
              { error: (error as Error).message },
              'a resource subscription was not shared with the other replicas',
            ),
          );
      };
    }
    return http;
  }

  #restore(id: string, principal: string, state: SealedSessionState): HttpSession {
    return this.#open({ id, principal, createdAt: state.createdAt }, state);
  }

  #end(session: HttpSession, reason: string): void {
    this.#sessions.delete(session.id);
    session.session.close(reason);
    session.close();
  }

  #sweep(): void {
    const cutoff = Date.now() - this.#options.idleTimeoutMs;
    for (const session of [...this.#sessions.values()]) {
      if (session.session.lastSeen >= cutoff) continue;
      this.#options.logger.info(
        `closing MCP session ${session.id.slice(0, 48)}: idle for more than ${this.#options.idleTimeoutMs} ms`,
      );
      this.#end(session, 'The session was idle too long.');
    }
  }
}

function badVersion(version: string): Found {
  return failure(
    400,
    JsonRpcErrorCode.TransportRefused,
    `Bad Request: unsupported MCP-Protocol-Version ${version} for a 2025 session (supported: ${legacyProtocolVersions.join(', ')}).`,
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
