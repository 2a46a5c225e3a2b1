/**
 * A POST, from body to answer, as named steps: read the body once (within its limit) and parse it
 * once → check the token's scopes (OAuth) → plan: classify the era, check a 2026-07-28 request's
 * headers, split a batch → admit: the rate limit, counted here and nowhere else → serve: a
 * 2026-07-28 request statelessly (or relayed to the replica its parked run is on), 2025 messages
 * on their session or statelessly, a batch, or a REST call. The REST endpoint's body becomes a
 * `tools/call` after the read, and takes the same steps.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type {
  InboundHttpRequest,
  JSONRPCMessage,
  JSONRPCRequest,
  JSONRPCResponse,
} from '@modelcontextprotocol/server';
import type { ClusterState } from '../cluster/cluster-state.js';
import { principalOf } from '../cluster/principal.js';
import { classifyMessage } from '../dispatch/classify-message.js';
import { checkJsonRpcMessage, checkJsonRpcValue, isRequestMessage } from '../protocol/json-rpc-message.js';
import type { RequestEnvelope } from '../protocol/request-envelope.js';
import type { RequestAuth } from '../request/request-auth.js';
import type { McpServer } from '../server/mcp-server.js';
import { checkRateLimit } from './check-rate-limit.js';
import type { ExchangeSessions } from './exchange-sessions.js';
import { type AnswerForwarding, forwardClientAnswer } from './forward-client-answer.js';
import { failure, writeFailure, writeJson } from './http-failure.js';
import type { HttpConfig } from './http-options.js';
import type { HttpSessions } from './http-sessions.js';
import { parseBody } from './parse-body.js';
import { readBody } from './read-body.js';
import { restCallOf, serveRestCall } from './rest-endpoint.js';
import { relayRetryTo } from './retry-relay.js';
import { type ExchangeOptions, serveStatelessBatch, serveStatelessRequest } from './stateless-exchange.js';
import { paramHeaderDeclarations, validateParamHeaders } from './validate-param-headers.js';
import { validateStandardHeaders } from './validate-standard-headers.js';

/** One POST on its way through the steps. */
export interface Post {
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
  readonly auth: RequestAuth | undefined;
  /** The client accepts SSE, and the server does not force JSON. */
  readonly sse: boolean;
  /** `POST /v1/tool-execute` rather than the MCP endpoint. */
  readonly rest: boolean;
}

/** What a POST serves, once classified. */
type PostPlan =
  /** A 2026-07-28 request (stateless). */
  | { kind: 'modern'; message: JSONRPCRequest; envelope: RequestEnvelope }
  /** 2025 messages: one, or a batch whose members are all valid. */
  | { kind: 'legacy'; messages: JSONRPCMessage[] }
  /** A 2025 batch with invalid members: those are answered in the batch's answer. */
  | { kind: 'batch'; requests: JSONRPCRequest[]; errors: JSONRPCMessage[] }
  /** A REST call. */
  | { kind: 'rest'; message: JSONRPCRequest };

/** What the POST path needs of its server. */
export interface McpPostOptions {
  server: McpServer;
  config: HttpConfig;
  cluster: ClusterState;
  /** 2025 sessions; undefined in stateless mode. */
  sessions: HttpSessions | undefined;
  /** One-exchange sessions of 2025 stateless requests. */
  exchanges: ExchangeSessions;
  /** Where answers to another replica's requests go. */
  forwarding: AnswerForwarding;
  /** The id parked runs name (the cluster's, where a replica id is configured). */
  relayId: string | undefined;
  /** Aborted when the server drains. */
  drainSignal: AbortSignal;
}

/** The POST path of one HTTP server. */
export class McpPost {
  readonly #options: McpPostOptions;

  constructor(options: McpPostOptions) {
    this.#options = options;
  }

  /** Step 1: read the body (limit) and parse it once; the rest of the steps follow. */
  serve(post: Post): Promise<void> {
    return new Promise((resolve, reject) => {
      readBody(post.request, this.#options.config.maxBodyBytes, (read) => {
        if (read === undefined) return resolve();
        if (!read.ok) {
          writeFailure(post.response, read);
          return resolve();
        }
        try {
          resolve(this.#parsed(post, read.body));
        } catch (error) {
          reject(error);
        }
      });
    });
  }

  /** Steps 2 and 3: scopes, then the plan; answers what needs no dispatch. */
  #parsed(post: Post, raw: Buffer): Promise<void> | undefined {
    const parsed = parseBody(raw);
    let plan: PostPlan | undefined;
    if (post.rest) {
      const call = restCallOf(parsed.ok ? parsed : undefined, post.response);
      if (call === undefined || !this.#scopesAllow(post, call)) return undefined;
      plan = { kind: 'rest', message: call };
    } else {
      if (!parsed.ok) {
        writeFailure(post.response, parsed);
        return undefined;
      }
      if (!this.#scopesAllow(post, parsed.value)) return undefined;
      plan = this.#plan(post, parsed.value);
    }
    return plan === undefined ? undefined : this.#admit(post, plan);
  }

  /** Step 2: an OAuth token's scopes cover the tools the body calls (else 403 with a challenge). */
  #scopesAllow(post: Post, body: unknown): boolean {
    const oauth = this.#options.config.oauth;
    const auth = post.auth;
    if (oauth === undefined || auth === undefined) return true;
    const allowed = oauth.allowsCalls({ scopes: [...auth.scopes] }, body, post.request);
    if (!allowed.ok) writeFailure(post.response, allowed);
    return allowed.ok;
  }

  /** Step 3: classify the body; undefined when it was answered already (refusals, notifications). */
  #plan(post: Post, body: unknown): PostPlan | undefined {
    if (Array.isArray(body)) return this.#planBatch(post, body);
    const checked = checkJsonRpcMessage(body);
    if ('error' in checked) {
      writeJson(post.response, 400, checked.error);
      return undefined;
    }
    const headers = post.request.headers;
    const protocolVersionHeader = firstOf(headers['mcp-protocol-version']);
    const mcpMethodHeader = firstOf(headers['mcp-method']);
    const mcpNameHeader = firstOf(headers['mcp-name']);
    const inbound: InboundHttpRequest = { httpMethod: 'POST', body };
    if (protocolVersionHeader !== undefined) inbound.protocolVersionHeader = protocolVersionHeader;
    if (mcpMethodHeader !== undefined) inbound.mcpMethodHeader = mcpMethodHeader;
    if (mcpNameHeader !== undefined) inbound.mcpNameHeader = mcpNameHeader;
    const route = classifyMessage(inbound, true);
    switch (route.kind) {
      case 'reject':
        writeFailure(post.response, {
          ...failure(route.httpStatus, route.error.code, route.error.message, { id: route.id }),
          ...(route.error.data !== undefined ? { data: route.error.data } : {}),
        });
        return undefined;
      case 'modern-notification':
        // Cancellation on this era is closing the request's stream; other notifications need no answer.
        post.response.writeHead(202).end();
        return undefined;
      case 'modern-request':
        return this.#headersMatch(post, route.message)
          ? { kind: 'modern', message: route.message, envelope: route.envelope }
          : undefined;
      case 'legacy':
        return { kind: 'legacy', messages: [checked.message] };
    }
  }

  /** A 2026-07-28 request's standard headers, and the `Mcp-Param-*` headers its tool declares. */
  #headersMatch(post: Post, message: JSONRPCRequest): boolean {
    const standard = validateStandardHeaders(post.request.headers, message);
    if (!standard.ok) {
      writeFailure(post.response, standard);
      return false;
    }
    if (message.method !== 'tools/call') return true;
    const name = (message.params as { name?: unknown } | undefined)?.name;
    const tool = typeof name === 'string' ? this.#options.server.getTool(name) : undefined;
    if (tool === undefined) return true;
    const custom = validateParamHeaders(
      post.request.headers,
      message,
      paramHeaderDeclarations(tool.inputSchema),
    );
    if (!custom.ok) writeFailure(post.response, custom);
    return custom.ok;
  }

  /** A JSON-RPC batch (2025 only: a batch with a 2026 request is refused). */
  #planBatch(post: Post, body: unknown[]): PostPlan | undefined {
    const checked = checkJsonRpcValue(body);
    if (!Array.isArray(checked)) {
      // An empty batch is one error, not a batch of them.
      writeJson(post.response, 400, 'error' in checked ? checked.error : undefined);
      return undefined;
    }
    const route = classifyMessage({ httpMethod: 'POST', body });
    if (route.kind === 'reject' && checked.every((item) => 'message' in item)) {
      writeFailure(post.response, failure(route.httpStatus, route.error.code, route.error.message));
      return undefined;
    }
    const messages: JSONRPCMessage[] = [];
    const errors: JSONRPCMessage[] = [];
    for (const item of checked) {
      if ('error' in item) errors.push(item.error as unknown as JSONRPCMessage);
      else messages.push(item.message);
    }
    if (errors.length === 0) return { kind: 'legacy', messages };
    // Invalid members are answered in the batch's answer; the valid ones are served.
    const requests = messages.filter(isRequestMessage);
    if (requests.length === 0) {
      writeJson(post.response, 200, errors);
      return undefined;
    }
    return { kind: 'batch', requests, errors };
  }

  /** Step 4: the rate limit, the one place it is counted (a `tools/call` over it: 429). */
  #admit(post: Post, plan: PostPlan): Promise<void> | undefined {
    const limit = this.#options.config.callsPerMinute;
    if (limit === undefined) return this.#serve(post, plan);
    const checked = checkRateLimit(this.#options.cluster, limit, principalOf(post.auth), requestsOf(plan));
    if (checked === undefined) return this.#serve(post, plan);
    return checked.then((result) => {
      if (result.ok) return this.#serve(post, plan);
      writeFailure(post.response, result);
      return undefined;
    });
  }

  /** Step 5: serve the plan. */
  #serve(post: Post, plan: PostPlan): Promise<void> | undefined {
    const { server } = this.#options;
    const auth = post.auth;
    switch (plan.kind) {
      case 'modern': {
        const options: ExchangeOptions = {
          era: 'modern',
          envelope: plan.envelope,
          sse: post.sse,
          drain: this.#options.drainSignal,
        };
        if (auth !== undefined) options.auth = auth;
        if (this.#options.relayId !== undefined) options.replicaId = this.#options.relayId;
        return this.#serveModern(plan.message, post.response, options);
      }
      case 'legacy':
        return this.#serveLegacy(post, plan.messages);
      case 'batch':
        return serveStatelessBatch(server.dispatcher, plan.requests, plan.errors, post.response, {
          era: 'legacy',
          sse: post.sse,
          ...(auth !== undefined ? { auth } : {}),
        });
      case 'rest':
        return serveRestCall(server.dispatcher, plan.message, post.response, auth);
    }
  }

  /** Serves a modern request here, or relays a retry whose parked run another replica holds. */
  #serveModern(
    message: JSONRPCRequest,
    response: ServerResponse,
    options: ExchangeOptions,
  ): Promise<void> | undefined {
    const { server, cluster } = this.#options;
    const requestState =
      message.method === 'tools/call'
        ? (message.params as { requestState?: unknown } | undefined)?.requestState
        : undefined;
    if (requestState === undefined)
      return serveStatelessRequest(server.dispatcher, message, response, options);
    return server.seal.ownerOf(requestState, 'tools/call').then((owner) => {
      const handling =
        owner === undefined || owner.replica === cluster.replicaId
          ? server.dispatcher
          : relayRetryTo({
              cluster,
              owner: owner.replica,
              tool: owner.target,
              timeoutMs: this.#options.config.retryRelayTimeoutMs,
              sse: options.sse,
              ...(options.auth !== undefined ? { auth: options.auth } : {}),
            });
      return serveStatelessRequest(handling, message, response, options);
    });
  }

  /** 2025: a session's messages, or stateless serving without sessions. */
  #serveLegacy(post: Post, messages: JSONRPCMessage[]): Promise<void> | undefined {
    const { request, response, sse, auth } = post;
    const { server, sessions, exchanges } = this.#options;
    if (sessions !== undefined) return sessions.post(request, response, messages, sse, auth);
    const requests = messages.filter(isRequestMessage);
    // A client's answer to a request of this server goes to the exchange that asked.
    for (const message of messages)
      if ('id' in message && !('method' in message) && !exchanges.resolve(message as never))
        forwardClientAnswer(this.#options.forwarding, '', message as JSONRPCResponse);
    if (requests.length === 0) {
      response.writeHead(202).end();
      return undefined;
    }
    if (messages.length === 1) {
      return serveStatelessRequest(server.dispatcher, requests[0] as JSONRPCRequest, response, {
        era: 'legacy',
        sse,
        exchanges,
        ...(auth !== undefined ? { auth } : {}),
      });
    }
    return serveStatelessBatch(server.dispatcher, requests, [], response, {
      era: 'legacy',
      sse,
      ...(auth !== undefined ? { auth } : {}),
    });
  }
}

/** The requests a plan dispatches (the rate limit counts their `tools/call`s). */
function requestsOf(plan: PostPlan): readonly JSONRPCRequest[] {
  switch (plan.kind) {
    case 'modern':
    case 'rest':
      return [plan.message];
    case 'legacy':
      return plan.messages.filter(isRequestMessage);
    case 'batch':
      return plan.requests;
  }
}

/** The first of a repeated header. */
function firstOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
