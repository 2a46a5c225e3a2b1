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
import type { AddressInfo } from 'node:net';
import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/server';
import { classifyMessage } from '../dispatch/classify-message.js';
import type { RequestAuth } from '../dispatch/inbound-request.js';
import { JsonRpcErrorCode } from '../errors/json-rpc-error-code.js';
import { ServerError, ServerErrorCode } from '../errors/server-error.js';
import { checkJsonRpcMessage, checkJsonRpcValue, isRequestMessage } from '../protocol/json-rpc-message.js';
import type { McpServer } from '../server/mcp-server.js';
import { checkBearerToken, tokenDigest } from './check-bearer-token.js';
import { checkHost, checkOrigin, type HostPolicy, isLoopbackHost } from './check-host-and-origin.js';
import { checkHttpMethod } from './check-http-method.js';
import { checkPostMediaType, checkStreamAccept } from './check-media-type.js';
import { ExchangeSessions } from './exchange-sessions.js';
import { failure, type HttpFailure, writeFailure, writeJson } from './http-failure.js';
import { HttpSessions } from './http-sessions.js';
import type { HttpServerHandle, HttpTransportOptions } from './http-transport-options.js';
import { parseBody } from './parse-body.js';
import { createProtectedResource, type ProtectedResource } from './protected-resource.js';
import { readBody } from './read-body.js';
import { parseRestCall, refuseRestBody, serveRestCall } from './rest-endpoint.js';
import { serveStatelessBatch, serveStatelessRequest } from './stateless-exchange.js';
import { paramHeaderDeclarations, validateParamHeaders } from './validate-param-headers.js';
import { validateStandardHeaders } from './validate-standard-headers.js';

export type { BearerAuthOptions, HttpServerHandle, HttpTransportOptions } from './http-transport-options.js';
export { isLoopbackHost };

const restPath = '/v1/tool-execute';

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
  readonly #bearer: Buffer | undefined;
  readonly #oauth: ProtectedResource | undefined;
  readonly #sessions: HttpSessions | undefined;
  readonly #exchanges = new ExchangeSessions();
  readonly #http: NodeHttpServer;
  #inFlight = 0;
  #closing = false;
  #drained: (() => void) | undefined;

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
    this.#bearer = options.auth?.type === 'bearer' ? tokenDigest(options.auth.token) : undefined;
    this.#oauth =
      options.auth?.type === 'oauth' ? createProtectedResource(options.auth, this.#path) : undefined;
    this.#sessions = options.session
      ? new HttpSessions(server, {
          retryIntervalMs: options.retryIntervalMs ?? 1000,
          idleTimeoutMs: options.sessionIdleTimeoutMs ?? 30 * 60 * 1000,
          logger: server.logger,
        })
      : undefined;
    this.#http = createServer((request, response) => this.#accept(request, response));
    this.#http.keepAliveTimeout = 65_000;
  }

  /** Starts listening. */
  async listen(): Promise<HttpServerHandle> {
    const host = this.#options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      this.#http.once('error', reject);
      this.#http.listen(this.#options.port ?? 3000, host, () => {
        this.#http.off('error', reject);
        resolve();
      });
    });
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
      close: () => {
        closed ??= this.#close();
        return closed;
      },
    };
  }

  #checkAuthOptions(host: string): void {
    const auth = this.#options.auth;
    if (auth !== undefined && auth.type !== 'oauth' && (auth.type !== 'bearer' || !auth.token)) {
      throw new ServerError({
        code: ServerErrorCode.ConfigInvalid,
        message:
          'serve: auth must be { type: "bearer", token: "<non-empty token>" } or { type: "oauth", ... }.',
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

  #accept(request: IncomingMessage, response: ServerResponse): void {
    // A session's GET stream stays open for the session's life: it is not a call to drain.
    const drains = !(request.method === 'GET' && pathnameOf(request.url) === this.#path);
    if (drains) this.#inFlight += 1;
    const done = () => {
      if (!drains) return;
      this.#inFlight -= 1;
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
    const isRest = this.#options.restEndpoint === true && pathname === restPath;
    if (pathname !== this.#path && !isRest) {
      writeJson(response, 404, {
        error: { code: 'NOT_FOUND', message: `No endpoint at ${pathname}; MCP is at ${this.#path}.` },
      });
      request.resume();
      return undefined;
    }
    if (this.#closing) {
      return this.#refuse(
        request,
        response,
        failure(503, JsonRpcErrorCode.TransportRefused, 'Server is shutting down.', {
          headers: { connection: 'close' },
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
      return isRest
        ? this.#rest(request, response, { scopes: [] })
        : this.#mcp(request, response, { scopes: [] });
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
      if (method.method === 'DELETE') sessions.delete(request, response);
      else {
        const accept = checkStreamAccept(request.headers.accept);
        if (!accept.ok) return this.#refuse(request, response, accept);
        sessions.get(request, response);
      }
      request.resume();
      return undefined;
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
    return serveStatelessRequest(this.#server.dispatcher, message, response, {
      era: 'modern',
      envelope,
      sse,
      ...(auth !== undefined ? { auth } : {}),
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
    if (this.#sessions !== undefined) return this.#sessions.post(request, response, messages, sse, auth);
    const requests = messages.filter(isRequestMessage);
    // A client's answer to a request of this server goes to the exchange that asked.
    for (const message of messages)
      if ('id' in message && !('method' in message)) this.#exchanges.resolve(message as never);
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
    return serveStatelessBatch(this.#server.dispatcher, requests, errors, response, {
      era: 'legacy',
      sse,
      ...(auth !== undefined ? { auth } : {}),
    });
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
        resolve(serveRestCall(this.#server, call, response));
      });
    });
  }

  /** `GET /health`: status always; details only for a caller with the bearer token (or without auth configured). */
  #health(request: IncomingMessage, response: ServerResponse): void {
    const authorized =
      this.#oauth === undefined &&
      (this.#bearer === undefined || checkBearerToken(request.headers.authorization, this.#bearer).ok);
    writeJson(response, this.#closing ? 503 : 200, {
      status: this.#closing ? 'closing' : 'ok',
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

  async #close(): Promise<void> {
    this.#closing = true;
    const stopped = new Promise<void>((resolve) => this.#http.close(() => resolve()));
    this.#http.closeIdleConnections();
    if (this.#inFlight > 0) {
      await Promise.race([
        new Promise<void>((resolve) => {
          this.#drained = resolve;
        }),
        new Promise<void>((resolve) => setTimeout(resolve, this.#options.drainTimeoutMs ?? 10_000).unref()),
      ]);
    }
    this.#sessions?.close();
    this.#http.closeAllConnections();
    await stopped;
  }
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
