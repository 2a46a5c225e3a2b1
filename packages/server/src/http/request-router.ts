/**
 * The entry of every HTTP request: the guards in front (Host/Origin, shutting down, bearer token
 * or OAuth; each a pure function in its own file), then the endpoint: OAuth metadata, the probes
 * (`probe-endpoints.ts`), the Server Card (`server-card.ts`), the MCP endpoint (GET and DELETE to the 2025 sessions, POST through
 * `mcp-post.ts`) or the REST endpoint (POST through the same steps). It tracks each call for the
 * drain and answers 500 for anything that throws.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { JsonRpcErrorCode } from '../errors/json-rpc-error-code.js';
import type { RequestAuth } from '../request/request-auth.js';
import { checkBearerToken } from './check-bearer-token.js';
import { checkHost, checkOrigin } from './check-host-and-origin.js';
import { checkHttpMethod } from './check-http-method.js';
import { checkPostMediaType, checkStreamAccept } from './check-media-type.js';
import type { DrainController } from './drain-controller.js';
import { failure, type HttpFailure, writeFailure, writeJson } from './http-failure.js';
import type { HttpConfig } from './http-options.js';
import type { HttpSessions } from './http-sessions.js';
import type { McpPost } from './mcp-post.js';
import { answerHealth, answerReady, type ProbeSubject } from './probe-endpoints.js';
import { restPath } from './rest-endpoint.js';
import { answerServerCard, isServerCardPath } from './server-card.js';

/** The endpoints a request can reach after the guards. */
type Endpoint = 'mcp' | 'rest';

/** What the router hands requests to. */
export interface RequestRouterParts {
  config: HttpConfig;
  /** 2025 sessions; undefined in stateless mode. */
  sessions: HttpSessions | undefined;
  post: McpPost;
  drain: DrainController;
  probes: ProbeSubject;
  /** Where a request that failed is logged. */
  logger: { error(fields: object, message: string): void };
}

/** Routes the requests of one HTTP server. */
export class RequestRouter {
  readonly #parts: RequestRouterParts;
  /** Whether this server's configuration lets a plain POST skip the steps (see `#plainPost`). */
  readonly #plainPosts: boolean;
  /** The last `Host` header the host check passed (the policy never changes). */
  #allowedHost: string | undefined;

  constructor(parts: RequestRouterParts) {
    this.#parts = parts;
    const { config } = parts;
    // No token to check, and the MCP path is neither the REST path nor a Server Card path.
    this.#plainPosts =
      config.bearer === undefined &&
      config.oauth === undefined &&
      !(config.restEndpoint && config.path === restPath) &&
      !(config.serverCard !== undefined && isServerCardPath(config.path, config));
  }

  /** Serves one request (the `node:http` request listener). */
  handle(request: IncomingMessage, response: ServerResponse): void {
    const { config, drain } = this.#parts;
    if (config.replicaId !== undefined) response.setHeader('x-switchboard-replica', config.replicaId);
    // A session's GET stream stays open for the session's life: it is not a call to drain.
    const pathname = pathnameOf(request.url);
    const done = drain.track(response, !(request.method === 'GET' && pathname === config.path));
    let handled: Promise<void> | undefined;
    try {
      handled = this.#plainPost(request, response, pathname) ?? this.#route(request, response, pathname);
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

  /**
   * Step 0: the common request — a POST of JSON to the MCP endpoint, from a `Host` that passed
   * before, with no `Origin`, to a server that checks no token and is not shutting down — goes
   * straight to the POST path, with what steps 1–3 would find for it. Anything else (another
   * method or path, an `Origin`, another media type, a new `Host`) takes the steps, which answer
   * it as they always did. Taking the steps cost a 2026-07-28 echo call 2–3 % of its round trip and
   * 2–5 % of the server's CPU (the server bench, paired rounds, against this shortcut). Undefined
   * when the request takes the steps.
   */
  #plainPost(
    request: IncomingMessage,
    response: ServerResponse,
    pathname: string,
  ): Promise<void> | undefined {
    const { config, drain, post } = this.#parts;
    if (!this.#plainPosts || request.method !== 'POST' || pathname !== config.path || drain.stopped)
      return undefined;
    const headers = request.headers;
    if (headers.origin !== undefined) return undefined;
    const host = headers.host;
    if (host === undefined || (host !== this.#allowedHost && !this.#hostAllowed(host))) return undefined;
    // Step 3's own check (what it refuses, it refuses there, with its answer).
    const media = checkPostMediaType(headers['content-type'], headers.accept);
    if (!media.ok) return undefined;
    return post.serve({ request, response, auth: undefined, sse: media.sse && !config.json, rest: false });
  }

  #hostAllowed(host: string): boolean {
    if (!checkHost(host, this.#parts.config.hostPolicy).ok) return false;
    this.#allowedHost = host;
    return true;
  }

  /** Step 1: Host and Origin, then the endpoint. */
  #route(request: IncomingMessage, response: ServerResponse, pathname: string): Promise<void> | undefined {
    const { config, drain } = this.#parts;
    const hostOk = checkHost(request.headers.host, config.hostPolicy);
    const guarded = hostOk.ok ? checkOrigin(request.headers.origin, config.hostPolicy) : hostOk;
    if (!guarded.ok) return refuse(request, response, guarded);
    const metadata = config.oauth?.metadata(request, pathname);
    if (metadata !== undefined) {
      response.writeHead(metadata.status, metadata.headers).end(metadata.body);
      request.resume();
      return undefined;
    }
    if (pathname === '/health' && request.method === 'GET') {
      answerHealth(this.#parts.probes, request, response);
      return undefined;
    }
    if (config.serverCard !== undefined && isServerCardPath(pathname, config)) {
      answerServerCard(this.#parts.probes.server, config, request, response, pathname);
      return undefined;
    }
    if (pathname === '/ready' && request.method === 'GET') {
      request.resume();
      return answerReady(this.#parts.probes, response);
    }
    const endpoint: Endpoint | undefined =
      config.restEndpoint && pathname === restPath ? 'rest' : pathname === config.path ? 'mcp' : undefined;
    if (endpoint === undefined) {
      writeJson(response, 404, {
        error: { code: 'NOT_FOUND', message: `No endpoint at ${pathname}; MCP is at ${config.path}.` },
      });
      request.resume();
      return undefined;
    }
    if (drain.stopped) {
      return refuse(
        request,
        response,
        failure(503, JsonRpcErrorCode.TransportRefused, 'Server is shutting down.', {
          headers: { connection: 'close', 'retry-after': '1' },
        }),
      );
    }
    return this.#authenticate(request, response, endpoint);
  }

  /** Step 2: authentication (bearer token or OAuth). */
  #authenticate(
    request: IncomingMessage,
    response: ServerResponse,
    endpoint: Endpoint,
  ): Promise<void> | undefined {
    const { bearer, oauth } = this.#parts.config;
    if (bearer !== undefined) {
      const checked = checkBearerToken(request.headers.authorization, bearer);
      if (!checked.ok) return refuse(request, response, checked);
      return this.#endpoint(request, response, endpoint, { scopes: [], principal: checked.principal });
    }
    if (oauth === undefined) return this.#endpoint(request, response, endpoint, undefined);
    return oauth.authenticate(request).then((verified) => {
      if (!verified.ok) return refuse(request, response, verified);
      const auth: RequestAuth = {
        scopes: verified.token.scopes,
        ...(verified.token.subject !== undefined ? { subject: verified.token.subject } : {}),
        ...(verified.token.clientId !== undefined ? { clientId: verified.token.clientId } : {}),
      };
      return this.#endpoint(request, response, endpoint, auth);
    });
  }

  /** Step 3: the endpoint's HTTP method and media type; a POST goes on to `mcp-post.ts`. */
  #endpoint(
    request: IncomingMessage,
    response: ServerResponse,
    endpoint: Endpoint,
    auth: RequestAuth | undefined,
  ): Promise<void> | undefined {
    const post = this.#parts.post;
    if (endpoint === 'rest') {
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
      return post.serve({ request, response, auth, sse: false, rest: true });
    }
    const sessions = this.#parts.sessions;
    const method = checkHttpMethod(request.method, sessions !== undefined);
    if (!method.ok) return refuse(request, response, method);
    if (method.method !== 'POST') {
      request.resume();
      if (method.method === 'DELETE') return (sessions as HttpSessions).delete(request, response, auth);
      const accept = checkStreamAccept(request.headers.accept);
      if (!accept.ok) return refuse(request, response, accept);
      return (sessions as HttpSessions).get(request, response, auth);
    }
    const media = checkPostMediaType(request.headers['content-type'], request.headers.accept);
    if (!media.ok) return refuse(request, response, media);
    return post.serve({ request, response, auth, sse: media.sse && !this.#parts.config.json, rest: false });
  }

  #failed(response: ServerResponse, error: unknown): void {
    this.#parts.logger.error(
      { error: error instanceof Error ? error.message : String(error) },
      'HTTP request failed',
    );
    if (!response.headersSent)
      writeFailure(response, failure(500, JsonRpcErrorCode.InternalError, 'Internal error'));
    else response.end();
  }
}

function refuse(request: IncomingMessage, response: ServerResponse, refused: HttpFailure): undefined {
  writeFailure(response, refused);
  request.resume();
  return undefined;
}

function pathnameOf(url: string | undefined): string {
  const value = url ?? '/';
  const query = value.indexOf('?');
  return query === -1 ? value : value.slice(0, query);
}
