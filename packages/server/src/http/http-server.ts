/**
 * Streamable HTTP on `node:http`, both protocol eras on one endpoint. One flow for every request:
 * route → guards (Host/Origin, auth, method, media type, body limit; each a pure function in its
 * own file) → parse the body once → classify the era (the SDK's `classifyInboundRequest`) →
 * standard-header checks (2026-07-28) → dispatch → write JSON or SSE. 2026-07-28 requests are
 * stateless; 2025 requests get sessions in session mode and are served statelessly otherwise.
 */
import {
  createServer,
  type IncomingMessage,
  type Server as NodeHttpServer,
  type ServerResponse,
} from 'node:http';
import { type AddressInfo, Server as NetServer, type Socket } from 'node:net';
import type { JSONRPCMessage, JSONRPCRequest, JSONRPCResponse } from '@modelcontextprotocol/server';
import { loadOpenTelemetry } from '@switchboard/core';
import { bridgeServerEvents } from '../cluster/bridge-server-events.js';
import type { ClusterState } from '../cluster/cluster-state.js';
import { createMemoryClusterState } from '../cluster/memory-cluster-state.js';
import { principalOf } from '../cluster/principal.js';
import { createSessionSealer } from '../cluster/session-sealer.js';
import { classifyMessage } from '../dispatch/classify-message.js';
import { JsonRpcErrorCode } from '../errors/json-rpc-error-code.js';
import { ServerError, ServerErrorCode } from '../errors/server-error.js';
import { checkJsonRpcMessage, checkJsonRpcValue, isRequestMessage } from '../protocol/json-rpc-message.js';
import type { RequestAuth } from '../request/request-auth.js';
import type { McpServer } from '../server/mcp-server.js';
import { replicaOfRequestId } from '../session/legacy-session.js';
import {
  type BearerTokenDigest,
  checkBearerToken,
  tokenDigest,
  tokenPrincipal,
} from './check-bearer-token.js';
import { checkHost, checkOrigin, type HostPolicy, isLoopbackHost } from './check-host-and-origin.js';
import { checkHttpMethod } from './check-http-method.js';
import { checkPostMediaType, checkStreamAccept } from './check-media-type.js';
import { checkRateLimit } from './check-rate-limit.js';
import { ExchangeSessions } from './exchange-sessions.js';
import { failure, type HttpFailure, writeFailure, writeJson } from './http-failure.js';
import { HttpSessions } from './http-sessions.js';
import type { HttpServerHandle, HttpTransportOptions, ReadinessCheck } from './http-transport-options.js';
import { parseBody } from './parse-body.js';
import { createProtectedResource, type ProtectedResource } from './protected-resource.js';
import { readBody } from './read-body.js';
import { parseRestCall, refuseRestBody, serveRestCall } from './rest-endpoint.js';
import { answerRelayedRetries, relayRetryTo } from './retry-relay.js';
import { type ExchangeOptions, serveStatelessBatch, serveStatelessRequest } from './stateless-exchange.js';
import { paramHeaderDeclarations, validateParamHeaders } from './validate-param-headers.js';
import { validateStandardHeaders } from './validate-standard-headers.js';

export type { BearerAuthOptions, HttpServerHandle, HttpTransportOptions } from './http-transport-options.js';

const replicaIdPattern = /^[A-Za-z0-9_-]{1,64}$/;

export { isLoopbackHost };

const restPath = '/v1/tool-execute';
/** How long `/ready` gives each further dependency: a probe must answer fast, not hang with it. */
const readinessCheckTimeoutMs = 1_000;

/** Runs a readiness check within `timeoutMs`; the failure's message, or undefined when it passed. */
async function checkWithin(dependency: ReadinessCheck, timeoutMs: number): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${timeoutMs} ms`), timeoutMs);
  });
  try {
    return await Promise.race([
      dependency.check().then(
        () => undefined,
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function pathnameOf(url: string | undefined): string {
  const value = url ?? '/';
  const query = value.indexOf('?');
  return query === -1 ? value : value.slice(0, query);
}

/** The HTTP front of one MCP server. */
class NodeHttpMcpServer {
  readonly #server: McpServer;
  readonly #options: HttpTransportOptions;
  readonly #path: string;
  readonly #maxBodyBytes: number;
  readonly #json: boolean;
  readonly #hostPolicy: HostPolicy;
  readonly #bearer: BearerTokenDigest[] | undefined;
  readonly #replicaId: string | undefined;
  readonly #cluster: ClusterState;
  readonly #readinessChecks: ReadonlyArray<ReadinessCheck>;
  readonly #stopBridge: (() => void) | undefined;
  readonly #oauth: ProtectedResource | undefined;
  readonly #sessions: HttpSessions | undefined;
  readonly #exchanges: ExchangeSessions;
  readonly #stopExchangeForwarding: (() => void) | undefined;
  /** The id parked runs name (the cluster's, where a replica id is configured). */
  readonly #relayId: string | undefined;
  readonly #stopRetryRelay: (() => void) | undefined;
  readonly #http: NodeHttpServer;
  #inFlight = 0;
  /** Responses of calls in flight: a drain tells those not yet started to close their connections. */
  readonly #open = new Set<ServerResponse>();
  /** Every open connection, for a drain that waits until clients closed theirs. */
  readonly #sockets = new Set<Socket>();
  /** Draining or closed: not ready, `Connection: close` on every response. */
  #closing = false;
  #drained: (() => void) | undefined;
  #draining: Promise<void> | undefined;
  /** Aborted when a drain starts (ends `subscriptions/listen` streams). */
  readonly #drainSignal = new AbortController();
  #stopped: Promise<void> | undefined;
  #listenerClosed: Promise<void> | undefined;

  constructor(server: McpServer, options: HttpTransportOptions) {
    this.#server = server;
    this.#options = options;
    this.#path = options.path ?? '/mcp';
    this.#maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
    this.#json = options.json ?? false;
    const host = options.host ?? '127.0.0.1';
    this.#checkAuthOptions(host);
    this.#hostPolicy = {
      checkHost: isLoopbackHost(host) || (options.allowedHosts?.length ?? 0) > 0,
      allowedHosts: new Set((options.allowedHosts ?? []).map((name) => name.toLowerCase())),
      allowedOrigins: new Set((options.allowedOrigins ?? []).map((origin) => origin.toLowerCase())),
    };
    this.#bearer = options.auth?.type === 'bearer' ? bearerDigests(options.auth) : undefined;
    this.#replicaId = options.replicaId ?? options.cluster?.replicaId;
    this.#readinessChecks = options.readinessChecks ?? [];
    if (this.#replicaId !== undefined && !replicaIdPattern.test(this.#replicaId)) {
      throw new ServerError({
        code: ServerErrorCode.ConfigInvalid,
        message: `serve: replicaId must be 1-64 letters, digits, "_" or "-" (got ${JSON.stringify(String(this.#replicaId).slice(0, 80))}); use e.g. the pod name.`,
      });
    }
    this.#cluster =
      options.cluster ??
      createMemoryClusterState(this.#replicaId !== undefined ? { replicaId: this.#replicaId } : {});
    this.#checkRateLimit();
    if (options.sessionKeys !== undefined && !options.session) {
      throw new ServerError({
        code: ServerErrorCode.ConfigInvalid,
        message:
          'serve: sessionKeys seal 2025 session ids, so they need session: true (without sessions there are no ids to seal).',
      });
    }
    this.#oauth =
      options.auth?.type === 'oauth' ? createProtectedResource(options.auth, this.#path) : undefined;
    this.#sessions = options.session
      ? new HttpSessions(server, {
          retryIntervalMs: options.retryIntervalMs ?? 1000,
          idleTimeoutMs: options.sessionIdleTimeoutMs ?? 30 * 60 * 1000,
          logger: server.logger,
          cluster: this.#cluster,
          maxAgeMs: options.sessionMaxAgeMs ?? 24 * 60 * 60 * 1000,
          ...(options.sessionKeys !== undefined
            ? { sealer: createSessionSealer({ keys: options.sessionKeys }) }
            : {}),
          ...(this.#replicaId !== undefined ? { replicaId: this.#replicaId } : {}),
        })
      : undefined;
    this.#exchanges = new ExchangeSessions(this.#replicaId);
    // Without sessions, a client's answer to a stateless exchange's request may reach another
    // replica; it comes back here (forwarded with no session id).
    this.#stopExchangeForwarding =
      this.#sessions === undefined
        ? this.#cluster.onForwardedResponse(({ sessionId, message }) => {
            if (sessionId === '') this.#exchanges.resolve(message as never);
          })
        : undefined;
    // Retries of multi-round calls parked here may arrive at any replica: they are relayed here.
    this.#relayId = this.#replicaId !== undefined ? this.#cluster.replicaId : undefined;
    this.#stopRetryRelay =
      this.#relayId !== undefined
        ? answerRelayedRetries(this.#cluster, server.dispatcher, this.#relayId)
        : undefined;
    // Change events cross replicas only when the state is shared; one process needs no bridge.
    this.#stopBridge = this.#cluster.shared ? bridgeServerEvents(server.bus, this.#cluster) : undefined;
    this.#http = createServer((request, response) => this.#accept(request, response));
    this.#http.keepAliveTimeout = 65_000;
    if (options.drainWaitsForIdleClose === true) {
      this.#http.on('connection', (socket: Socket) => {
        this.#sockets.add(socket);
        socket.once('close', () => this.#sockets.delete(socket));
      });
    }
  }

  /** Starts listening. */
  async listen(): Promise<HttpServerHandle> {
    const host = this.#options.host ?? '127.0.0.1';
    // Telemetry is ready before the first request (the optional @opentelemetry/api, loaded once).
    await loadOpenTelemetry();
    try {
      await new Promise<void>((resolve, reject) => {
        this.#http.once('error', reject);
        this.#http.listen(this.#options.port ?? 3000, host, () => {
          this.#http.off('error', reject);
          resolve();
        });
      });
    } catch (error) {
      // Not serving after all: nothing may stay subscribed to the bus or the cluster state.
      this.#stopBridge?.();
      this.#stopExchangeForwarding?.();
      this.#stopRetryRelay?.();
      this.#sessions?.close();
      throw error;
    }
    const address = this.#http.address() as AddressInfo;
    const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const url = `http://${urlHost}:${address.port}${this.#path}`;
    this.#server.logger.info(
      `MCP server "${this.#server.name}" listening on ${url} (${this.#sessions ? 'session' : 'stateless'} mode; 2025 and 2026-07-28 clients)`,
    );
    let closed: Promise<void> | undefined;
    return {
      url,
      port: address.port,
      host,
      ...(this.#replicaId !== undefined ? { replicaId: this.#replicaId } : {}),
      drain: () => this.#drain(),
      close: () => {
        closed ??= this.#close();
        return closed;
      },
    };
  }

  #checkAuthOptions(host: string): void {
    const auth = this.#options.auth;
    const bearerOk =
      auth?.type === 'bearer' &&
      (typeof auth.token === 'string' ? auth.token !== '' : auth.token === undefined) &&
      (auth.tokens === undefined ||
        (Array.isArray(auth.tokens) &&
          auth.tokens.every(
            (entry) =>
              typeof entry?.token === 'string' &&
              entry.token !== '' &&
              typeof entry.principal === 'string' &&
              entry.principal !== '',
          ))) &&
      (auth.token !== undefined || (auth.tokens?.length ?? 0) > 0);
    if (auth !== undefined && auth.type !== 'oauth' && !bearerOk) {
      throw new ServerError({
        code: ServerErrorCode.ConfigInvalid,
        message:
          'serve: auth must be { type: "bearer", token: "<non-empty token>" }, { type: "bearer", tokens: [{ token, principal }, ...] } (non-empty strings) or { type: "oauth", ... }.',
      });
    }
    if (isLoopbackHost(host) || auth !== undefined) return;
    if (!this.#options.allowUnauthenticated) {
      throw new ServerError({
        code: ServerErrorCode.ConfigInvalid,
        message: `serve: refusing to bind ${host} (reachable from other machines) without auth. Set auth: { type: "bearer", token } or, if a proxy authenticates, allowUnauthenticated: true.`,
        context: { host },
      });
    }
    this.#server.logger.warn(
      `!!! WARNING: serving MCP on ${host} WITHOUT AUTHENTICATION. Anyone who can reach this port can call every tool. !!!`,
    );
  }

  #checkRateLimit(): void {
    const limit = this.#options.rateLimit;
    if (limit === undefined) return;
    if (!Number.isSafeInteger(limit?.callsPerMinute) || limit.callsPerMinute < 1) {
      throw new ServerError({
        code: ServerErrorCode.ConfigInvalid,
        message: `serve: rateLimit.callsPerMinute must be a positive integer (got ${JSON.stringify(limit?.callsPerMinute)}).`,
      });
    }
  }

  #accept(request: IncomingMessage, response: ServerResponse): void {
    if (this.#replicaId !== undefined) response.setHeader('x-switchboard-replica', this.#replicaId);
    // While draining, each answer closes its connection: the balancer moves to another replica.
    if (this.#closing) response.shouldKeepAlive = false;
    // A session's GET stream stays open for the session's life: it is not a call to drain.
    const drains = !(request.method === 'GET' && pathnameOf(request.url) === this.#path);
    if (drains) {
      this.#inFlight += 1;
      this.#open.add(response);
    }
    const done = () => {
      if (!drains) return;
      this.#inFlight -= 1;
      this.#open.delete(response);
      if (this.#inFlight === 0) this.#drained?.();
    };
    let handled: Promise<void> | undefined;
    try {
      handled = this.#route(request, response);
    } catch (error) {
      this.#failed(response, error);
    }
    if (handled === undefined) done();
    else
      handled.then(done, (error: unknown) => {
        this.#failed(response, error);
        done();
      });
  }

  /** Step 1: the endpoint. */
  #route(request: IncomingMessage, response: ServerResponse): Promise<void> | undefined {
    const pathname = pathnameOf(request.url);
    const hostOk = checkHost(request.headers.host, this.#hostPolicy);
    const guarded = hostOk.ok ? checkOrigin(request.headers.origin, this.#hostPolicy) : hostOk;
    if (!guarded.ok) return this.#refuse(request, response, guarded);
    const metadata = this.#oauth?.metadata(request, pathname);
    if (metadata !== undefined) {
      response.writeHead(metadata.status, metadata.headers).end(metadata.body);
      request.resume();
      return undefined;
    }
    if (pathname === '/health' && request.method === 'GET') {
      this.#health(request, response);
      return undefined;
    }
    if (pathname === '/ready' && request.method === 'GET') {
      request.resume();
      return this.#ready(response);
    }
    const isRest = this.#options.restEndpoint === true && pathname === restPath;
    if (pathname !== this.#path && !isRest) {
      writeJson(response, 404, {
        error: { code: 'NOT_FOUND', message: `No endpoint at ${pathname}; MCP is at ${this.#path}.` },
      });
      request.resume();
      return undefined;
    }
    if (this.#stopped !== undefined) {
      return this.#refuse(
        request,
        response,
        failure(503, JsonRpcErrorCode.TransportRefused, 'Server is shutting down.', {
          headers: { connection: 'close', 'retry-after': '1' },
        }),
      );
    }
    return this.#authenticate(request, response, isRest);
  }

  /** Step 2: authentication (bearer token or OAuth). */
  #authenticate(
    request: IncomingMessage,
    response: ServerResponse,
    isRest: boolean,
  ): Promise<void> | undefined {
    if (this.#bearer !== undefined) {
      const checked = checkBearerToken(request.headers.authorization, this.#bearer);
      if (!checked.ok) return this.#refuse(request, response, checked);
      const auth: RequestAuth = { scopes: [], principal: checked.principal };
      return isRest ? this.#rest(request, response, auth) : this.#mcp(request, response, auth);
    }
    if (this.#oauth === undefined)
      return isRest ? this.#rest(request, response, undefined) : this.#mcp(request, response, undefined);
    return this.#oauth.authenticate(request).then((verified) => {
      if (!verified.ok) return this.#refuse(request, response, verified);
      const auth: RequestAuth = {
        scopes: verified.token.scopes,
        ...(verified.token.subject !== undefined ? { subject: verified.token.subject } : {}),
        ...(verified.token.clientId !== undefined ? { clientId: verified.token.clientId } : {}),
      };
      return isRest ? this.#rest(request, response, auth) : this.#mcp(request, response, auth);
    });
  }

  /** Step 3: the MCP endpoint's method and media type; then the body. */
  #mcp(
    request: IncomingMessage,
    response: ServerResponse,
    auth: RequestAuth | undefined,
  ): Promise<void> | undefined {
    const method = checkHttpMethod(request.method, this.#sessions !== undefined);
    if (!method.ok) return this.#refuse(request, response, method);
    if (method.method !== 'POST') {
      const sessions = this.#sessions as HttpSessions;
      request.resume();
      if (method.method === 'DELETE') return sessions.delete(request, response, auth);
      const accept = checkStreamAccept(request.headers.accept);
      if (!accept.ok) return this.#refuse(request, response, accept);
      return sessions.get(request, response, auth);
    }
    const media = checkPostMediaType(request.headers['content-type'], request.headers.accept);
    if (!media.ok) return this.#refuse(request, response, media);
    const sse = media.sse && !this.#json;
    return this.#withBody(request, response, (value) => this.#post(request, response, value, sse, auth));
  }

  /** Step 4: read the body (limit) and parse it once. */
  #withBody(
    request: IncomingMessage,
    response: ServerResponse,
    next: (value: unknown) => Promise<void> | undefined,
  ): Promise<void> {
    return new Promise((resolve, reject) => {
      readBody(request, this.#maxBodyBytes, (read) => {
        if (read === undefined) return resolve();
        if (!read.ok) {
          writeFailure(response, read);
          return resolve();
        }
        const parsed = parseBody(read.body);
        if (!parsed.ok) {
          writeFailure(response, parsed);
          return resolve();
        }
        try {
          resolve(next(parsed.value));
        } catch (error) {
          reject(error);
        }
      });
    });
  }

  /** Step 5: classify the era and serve. */
  #post(
    request: IncomingMessage,
    response: ServerResponse,
    body: unknown,
    sse: boolean,
    auth: RequestAuth | undefined,
  ): Promise<void> | undefined {
    const token = auth?.scopes !== undefined && this.#oauth !== undefined ? auth : undefined;
    if (token !== undefined) {
      const allowed = (this.#oauth as ProtectedResource).allowsCalls(
        { scopes: [...token.scopes] },
        body,
        request,
      );
      if (!allowed.ok) {
        writeFailure(response, allowed);
        return undefined;
      }
    }
    if (Array.isArray(body)) return this.#postBatch(request, response, body, sse, auth);
    const checked = checkJsonRpcMessage(body);
    if ('error' in checked) {
      writeJson(response, 400, checked.error);
      return undefined;
    }
    const headers = request.headers;
    const route = classifyMessage(
      {
        httpMethod: 'POST',
        body,
        ...headerField('protocolVersionHeader', headers['mcp-protocol-version']),
        ...headerField('mcpMethodHeader', headers['mcp-method']),
        ...headerField('mcpNameHeader', headers['mcp-name']),
      },
      true,
    );
    switch (route.kind) {
      case 'reject':
        writeFailure(response, {
          ...failure(route.httpStatus, route.error.code, route.error.message, { id: route.id }),
          ...(route.error.data !== undefined ? { data: route.error.data } : {}),
        });
        return undefined;
      case 'modern-notification':
        // Cancellation on this era is closing the request's stream; other notifications need no answer.
        response.writeHead(202).end();
        return undefined;
      case 'modern-request':
        return this.#postModern(request, response, route.message, route.envelope, sse, auth);
      case 'legacy':
        return this.#postLegacy(request, response, [checked.message], sse, auth);
    }
  }

  /** 2026-07-28: standard and custom headers, then a stateless dispatch. */
  #postModern(
    request: IncomingMessage,
    response: ServerResponse,
    message: JSONRPCRequest,
    envelope: import('../protocol/request-envelope.js').RequestEnvelope,
    sse: boolean,
    auth: RequestAuth | undefined,
  ): Promise<void> | undefined {
    const standard = validateStandardHeaders(request.headers, message);
    if (!standard.ok) {
      writeFailure(response, standard);
      return undefined;
    }
    if (message.method === 'tools/call') {
      const name = (message.params as { name?: unknown } | undefined)?.name;
      const tool = typeof name === 'string' ? this.#server.getTool(name) : undefined;
      if (tool !== undefined) {
        const custom = validateParamHeaders(
          request.headers,
          message,
          paramHeaderDeclarations(tool.inputSchema),
        );
        if (!custom.ok) {
          writeFailure(response, custom);
          return undefined;
        }
      }
    }
    const serve = () =>
      this.#serveModern(message, response, {
        era: 'modern',
        envelope,
        sse,
        drain: this.#drainSignal.signal,
        ...(auth !== undefined ? { auth } : {}),
        ...(this.#relayId !== undefined ? { replicaId: this.#relayId } : {}),
      });
    return this.#options.rateLimit === undefined
      ? serve()
      : this.#withinRateLimit(response, [message], auth, serve);
  }

  /** Serves a modern request here, or relays a retry whose parked run another replica holds. */
  #serveModern(
    message: JSONRPCRequest,
    response: ServerResponse,
    options: ExchangeOptions,
  ): Promise<void> | undefined {
    const requestState =
      message.method === 'tools/call'
        ? (message.params as { requestState?: unknown } | undefined)?.requestState
        : undefined;
    if (requestState === undefined)
      return serveStatelessRequest(this.#server.dispatcher, message, response, options);
    return this.#server.seal.ownerOf(requestState, 'tools/call').then((owner) => {
      const handling =
        owner === undefined || owner.replica === this.#cluster.replicaId
          ? this.#server.dispatcher
          : relayRetryTo({
              cluster: this.#cluster,
              owner: owner.replica,
              tool: owner.target,
              timeoutMs: this.#options.retryRelayTimeoutMs ?? 5_000,
              sse: options.sse,
              ...(options.auth !== undefined ? { auth: options.auth } : {}),
            });
      return serveStatelessRequest(handling, message, response, options);
    });
  }

  /** Runs `next` unless a `tools/call` among `requests` is over the rate limit (then 429). */
  #withinRateLimit(
    response: ServerResponse,
    requests: readonly JSONRPCRequest[],
    auth: RequestAuth | undefined,
    next: () => Promise<void> | undefined,
  ): Promise<void> | undefined {
    const limit = this.#options.rateLimit;
    if (limit === undefined) return next();
    const checked = checkRateLimit(this.#cluster, limit.callsPerMinute, principalOf(auth), requests);
    if (checked === undefined) return next();
    return checked.then((result) => {
      if (!result.ok) {
        writeFailure(response, result);
        return undefined;
      }
      return next();
    });
  }

  /** 2025: a session's messages, or stateless serving without sessions. */
  #postLegacy(
    request: IncomingMessage,
    response: ServerResponse,
    messages: JSONRPCMessage[],
    sse: boolean,
    auth: RequestAuth | undefined,
  ): Promise<void> | undefined {
    if (this.#options.rateLimit === undefined)
      return this.#serveLegacy(request, response, messages, sse, auth);
    return this.#withinRateLimit(response, messages.filter(isRequestMessage), auth, () =>
      this.#serveLegacy(request, response, messages, sse, auth),
    );
  }

  #serveLegacy(
    request: IncomingMessage,
    response: ServerResponse,
    messages: JSONRPCMessage[],
    sse: boolean,
    auth: RequestAuth | undefined,
  ): Promise<void> | undefined {
    if (this.#sessions !== undefined) return this.#sessions.post(request, response, messages, sse, auth);
    const requests = messages.filter(isRequestMessage);
    // A client's answer to a request of this server goes to the exchange that asked.
    for (const message of messages)
      if ('id' in message && !('method' in message) && !this.#exchanges.resolve(message as never))
        this.#forwardExchangeAnswer(message as JSONRPCResponse);
    if (messages.length === 1) {
      const [message] = requests;
      if (message === undefined) {
        response.writeHead(202).end();
        return undefined;
      }
      return serveStatelessRequest(this.#server.dispatcher, message, response, {
        era: 'legacy',
        sse,
        exchanges: this.#exchanges,
        ...(auth !== undefined ? { auth } : {}),
      });
    }
    if (requests.length === 0) {
      response.writeHead(202).end();
      return undefined;
    }
    return serveStatelessBatch(this.#server.dispatcher, requests, [], response, {
      era: 'legacy',
      sse,
      ...(auth !== undefined ? { auth } : {}),
    });
  }

  /** An answer to a request another replica's exchange sent (its id names the replica) goes there. */
  #forwardExchangeAnswer(message: JSONRPCResponse): void {
    const owner = message.id === undefined ? undefined : replicaOfRequestId(message.id);
    if (owner === undefined || owner === this.#replicaId) return;
    this.#cluster.forwardResponse(owner, { sessionId: '', message }).catch((error: unknown) => {
      this.#server.logger.warn(
        { error: (error as Error).message },
        `cannot forward a client response to replica ${owner}`,
      );
    });
  }

  /** A JSON-RPC batch (2025 only: a batch with a 2026 request is refused). */
  #postBatch(
    request: IncomingMessage,
    response: ServerResponse,
    body: unknown[],
    sse: boolean,
    auth: RequestAuth | undefined,
  ): Promise<void> | undefined {
    const checked = checkJsonRpcValue(body);
    if (!Array.isArray(checked)) {
      // An empty batch is one error, not a batch of them.
      writeJson(response, 400, 'error' in checked ? checked.error : undefined);
      return undefined;
    }
    const route = classifyMessage({ httpMethod: 'POST', body });
    if (route.kind === 'reject' && checked.every((item) => 'message' in item)) {
      writeFailure(response, failure(route.httpStatus, route.error.code, route.error.message));
      return undefined;
    }
    const messages: JSONRPCMessage[] = [];
    const errors: JSONRPCMessage[] = [];
    for (const item of checked) {
      if ('error' in item) errors.push(item.error as unknown as JSONRPCMessage);
      else messages.push(item.message);
    }
    if (errors.length === 0) return this.#postLegacy(request, response, messages, sse, auth);
    // Invalid members are answered in the batch's answer; the valid ones are served.
    const requests = messages.filter(isRequestMessage);
    if (requests.length === 0) {
      writeJson(response, 200, errors);
      return undefined;
    }
    return this.#withinRateLimit(response, requests, auth, () =>
      serveStatelessBatch(this.#server.dispatcher, requests, errors, response, {
        era: 'legacy',
        sse,
        ...(auth !== undefined ? { auth } : {}),
      }),
    );
  }

  /** `POST /v1/tool-execute`. */
  #rest(
    request: IncomingMessage,
    response: ServerResponse,
    auth: RequestAuth | undefined,
  ): Promise<void> | undefined {
    if (request.method !== 'POST') {
      writeJson(
        response,
        405,
        { error: { code: 'METHOD_NOT_ALLOWED', message: 'Use POST.' } },
        { allow: 'POST' },
      );
      request.resume();
      return undefined;
    }
    return new Promise((resolve) => {
      readBody(request, this.#maxBodyBytes, (read) => {
        if (read === undefined) return resolve();
        if (!read.ok) {
          writeFailure(response, read);
          return resolve();
        }
        const parsed = parseBody(read.body);
        const call = parsed.ok ? parseRestCall(parsed.value) : undefined;
        if (call === undefined) {
          refuseRestBody(response, parsed.ok ? 'shape' : 'json');
          return resolve();
        }
        if (auth !== undefined && this.#oauth !== undefined) {
          const allowed = this.#oauth.allowsCalls(
            { scopes: [...auth.scopes] },
            { method: 'tools/call', params: { name: call.tool } },
            request,
          );
          if (!allowed.ok) {
            writeFailure(response, allowed);
            return resolve();
          }
        }
        const asCall: JSONRPCRequest = {
          jsonrpc: '2.0',
          id: 0,
          method: 'tools/call',
          params: { name: call.tool },
        };
        resolve(
          this.#withinRateLimit(response, [asCall], auth, () => serveRestCall(this.#server, call, response)),
        );
      });
    });
  }

  /**
   * `GET /health` (liveness): 200 while the process serves, draining included (a drain is not a
   * reason to restart it); details only for a caller with the bearer token (or without auth).
   */
  #health(request: IncomingMessage, response: ServerResponse): void {
    const authorized =
      this.#oauth === undefined &&
      (this.#bearer === undefined || checkBearerToken(request.headers.authorization, this.#bearer).ok);
    const closed = this.#stopped !== undefined;
    writeJson(response, closed ? 503 : 200, {
      status: closed ? 'closing' : 'ok',
      ...(this.#replicaId !== undefined ? { replica: this.#replicaId } : {}),
      ...(this.#closing ? { draining: true } : {}),
      name: this.#server.name,
      version: this.#server.version,
      mode: this.#sessions ? 'session' : 'stateless',
      ...(authorized
        ? {
            sessions: this.#sessions?.size ?? 0,
            inFlight: this.#inFlight,
            tools: this.#server.listTools().length,
            ...this.#server.health?.(),
          }
        : {}),
    });
  }

  /** `GET /ready` (readiness): 503 while draining, or while shared cluster state does not answer. */
  async #ready(response: ServerResponse): Promise<void> {
    const replica = this.#replicaId !== undefined ? { replica: this.#replicaId } : {};
    if (this.#closing) {
      writeJson(response, 503, { status: 'draining', ...replica }, { 'retry-after': '1' });
      return;
    }
    if (this.#cluster.shared && !(await this.#cluster.ready())) {
      writeJson(
        response,
        503,
        {
          status: 'unavailable',
          ...replica,
          message: `Shared state unreachable${this.#cluster.location !== undefined ? ` (${this.#cluster.location})` : ''}: session requests, resumption and rate-limited calls fail until it is back.`,
        },
        { 'retry-after': '1' },
      );
      return;
    }
    for (const dependency of this.#readinessChecks) {
      const failed = await checkWithin(dependency, readinessCheckTimeoutMs);
      if (failed === undefined) continue;
      writeJson(
        response,
        503,
        { status: 'unavailable', ...replica, message: `${dependency.name} unreachable: ${failed}` },
        { 'retry-after': '1' },
      );
      return;
    }
    writeJson(response, 200, { status: 'ready', ...replica });
  }

  #refuse(request: IncomingMessage, response: ServerResponse, refused: HttpFailure): undefined {
    writeFailure(response, refused);
    request.resume();
    return undefined;
  }

  #failed(response: ServerResponse, error: unknown): void {
    this.#server.logger.error(
      { error: error instanceof Error ? error.message : String(error) },
      'HTTP request failed',
    );
    if (!response.headersSent)
      writeFailure(response, failure(500, JsonRpcErrorCode.InternalError, 'Internal error'));
    else response.end();
  }

  /** Stops accepting, waits for calls in flight (bounded), closes idle keep-alive connections. */
  #drain(): Promise<void> {
    this.#draining ??= (async () => {
      const startedAt = Date.now();
      this.#closing = true;
      this.#drainSignal.abort();
      for (const response of this.#open) if (!response.headersSent) response.shouldKeepAlive = false;
      // Closing the listener makes a balancer's next connect fail over at once.
      this.#listenerClosed = new Promise<void>((resolve) => {
        // http.Server#close also closes idle keep-alive connections (Node ≥ 19), which is the very
        // race a balancer-facing drain avoids; net.Server#close only stops accepting.
        if (this.#options.drainWaitsForIdleClose === true)
          NetServer.prototype.close.call(this.#http, () => resolve());
        else this.#http.close(() => resolve());
      });
      // Behind a balancer its idle connections are its to close (below); else close them now.
      if (this.#options.drainWaitsForIdleClose !== true) this.#http.closeIdleConnections();
      if (this.#inFlight > 0) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          new Promise<void>((resolve) => {
            this.#drained = resolve;
          }),
          new Promise<void>((resolve) => {
            timer = setTimeout(resolve, this.#options.drainTimeoutMs ?? 10_000);
            timer.unref();
          }),
        ]);
        clearTimeout(timer);
      }
      if (this.#options.drainWaitsForIdleClose === true) {
        this.#sessions?.endStandaloneStreams();
        await this.#clientsClosed(startedAt + (this.#options.drainTimeoutMs ?? 10_000));
      }
      this.#http.closeIdleConnections();
    })();
    return this.#draining;
  }

  /** Resolves once every connection was closed by its client, or at `deadline` (epoch ms). */
  async #clientsClosed(deadline: number): Promise<void> {
    // Polled: a close event per socket would need a listener per connection for this rare wait.
    while (this.#sockets.size > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25).unref());
    }
    if (this.#sockets.size > 0) {
      this.#server.logger.warn(
        `drain: ${this.#sockets.size} connection(s) still open at the drain timeout (${this.#inFlight} call(s) in flight); closing them`,
      );
    }
  }

  async #close(): Promise<void> {
    await this.#drain();
    this.#stopped = Promise.resolve();
    this.#stopBridge?.();
    this.#stopExchangeForwarding?.();
    this.#stopRetryRelay?.();
    this.#sessions?.close();
    this.#http.closeAllConnections();
    await this.#listenerClosed;
  }
}

/** The configured static tokens as digests, each with its principal. */
function bearerDigests(auth: {
  token?: string;
  tokens?: Array<{ token: string; principal: string }>;
}): BearerTokenDigest[] {
  const digests: BearerTokenDigest[] = [];
  if (auth.token !== undefined)
    digests.push({ digest: tokenDigest(auth.token), principal: tokenPrincipal(auth.token) });
  for (const entry of auth.tokens ?? [])
    digests.push({ digest: tokenDigest(entry.token), principal: entry.principal });
  return digests;
}

function headerField<K extends string>(
  key: K,
  value: string | string[] | undefined,
): Partial<Record<K, string>> {
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? {} : ({ [key]: first } as Record<K, string>);
}

/** Starts the HTTP server for `server`. */
export async function serveHttp(server: McpServer, options: HttpTransportOptions): Promise<HttpServerHandle> {
  return new NodeHttpMcpServer(server, options).listen();
}
