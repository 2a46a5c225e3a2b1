/**
 * How this client answers what a server asks of it — elicitation, sampling, roots — in either
 * era: a 2025 server request, one input request of a 2026-07-28 input-required round, or one of a
 * task waiting for input. The handlers given for the call it belongs to answer first, else the
 * client-level ones. Which call a request belongs to is known where it arrives: a round or a task
 * belongs to the call that drives it; a 2025 request to the call whose response stream carried it,
 * or to the one call with handlers of its own in flight (the request engine tells). Requests and
 * answers are checked against the spec's schemas, and a form elicitation's answer gets the
 * requested schema's defaults (SEP-1034) when the client said it applies them.
 */
import {
  type ClientCapabilities,
  type CreateMessageRequest,
  type CreateMessageResult,
  type ElicitRequest,
  type ElicitResult,
  getSupportedElicitationModes,
  ProtocolError,
  type Root,
} from '@modelcontextprotocol/client';
import {
  CreateMessageRequestParamsSchema,
  CreateMessageResultSchema,
  CreateMessageResultWithToolsSchema,
  ElicitRequestParamsSchema,
  ElicitResultSchema,
} from '@modelcontextprotocol/core';
import { JsonRpcErrorCode } from '@switchboard/transports';

/** Context given to sampling, elicitation and roots handlers. */
export interface ServerRequestContext {
  /** The server asking. */
  server: string;
  /** The tool call the request belongs to, when known. */
  tool?: string;
  /** Aborted when the server cancels its request (or the call it belongs to is aborted). */
  signal: AbortSignal;
}

/** Answers `sampling/createMessage` (the server asks the client's model for a completion). */
export type SamplingHandler = (
  params: CreateMessageRequest['params'],
  context: ServerRequestContext,
) => Promise<CreateMessageResult> | CreateMessageResult;

/** Answers `elicitation/create` (the server asks the user for input). */
export type ElicitationHandler = (
  params: ElicitRequest['params'],
  context: ServerRequestContext,
) => Promise<ElicitResult> | ElicitResult;

/** Answers `roots/list` for one call. */
export type ListRootsHandler = (context: ServerRequestContext) => Root[] | Promise<Root[]>;

/** The roots offered to servers: a list, or a function asked each time. */
export type RootsProvider = Root[] | (() => Root[] | Promise<Root[]>);

/** Handlers of one call; each takes precedence over the client-level one for that call's requests. */
export interface CallServerRequestHandlers {
  /** Answers the call's `elicitation/create` requests. */
  onElicitation?: ElicitationHandler;
  /** Answers the call's `sampling/createMessage` requests. */
  onSampling?: SamplingHandler;
  /** Answers the call's `roots/list` requests. */
  onListRoots?: ListRootsHandler;
}

/** The call a request is sent for: the server requests that belong to it are answered with its handlers. */
export interface RequestOwner {
  /** The tool it calls (for the handlers' context). */
  readonly tool: string;
  readonly handlers: CallServerRequestHandlers;
}

/** The client-level handlers (the capabilities they declare are what a server may ask for). */
export interface ClientServerRequestHandlers {
  /** Answers `elicitation/create` of calls without a handler of their own. */
  elicitation?: ElicitationHandler;
  /** Answers `sampling/createMessage` of calls without a handler of their own. */
  sampling?: SamplingHandler;
  /** The roots of calls without a handler of their own. */
  roots?: RootsProvider;
}

/** Answers one request of the server; what it throws is the error the server gets. */
export type AnswerServerRequest = (
  method: string,
  params: Record<string, unknown> | undefined,
  owner: RequestOwner | undefined,
  signal: AbortSignal,
) => Promise<unknown>;

/** True when a call has handlers of its own (its requests are then routed to it). */
export function hasOwnHandlers(handlers: CallServerRequestHandlers): boolean {
  return (
    handlers.onElicitation !== undefined ||
    handlers.onSampling !== undefined ||
    handlers.onListRoots !== undefined
  );
}

/** The answers of one connection's server requests. */
export function createServerRequestAnswers(
  server: string,
  client: ClientServerRequestHandlers,
  capabilities: ClientCapabilities,
): AnswerServerRequest {
  const context = (owner: RequestOwner | undefined, signal: AbortSignal): ServerRequestContext =>
    owner === undefined ? { server, signal } : { server, tool: owner.tool, signal };
  const missing = (method: string): ProtocolError =>
    new ProtocolError(
      JsonRpcErrorCode.MethodNotFound,
      `MCP server "${server}" sent ${method}, but this call has no handler for it`,
    );

  const elicit = async (
    params: Record<string, unknown> | undefined,
    owner: RequestOwner | undefined,
    signal: AbortSignal,
  ): Promise<ElicitResult> => {
    const handler = owner?.handlers.onElicitation ?? client.elicitation;
    if (handler === undefined) throw missing('elicitation/create');
    const request = checked(ElicitRequestParamsSchema, params, 'Invalid elicitation request');
    const mode = (request as { mode?: string }).mode ?? 'form';
    const modes = getSupportedElicitationModes(capabilities.elicitation ?? { form: {} });
    if ((mode === 'form' && !modes.supportsFormMode) || (mode === 'url' && !modes.supportsUrlMode)) {
      throw new ProtocolError(-32_602, `Client does not support ${mode}-mode elicitation requests`);
    }
    // The handler gets the request as the server sent it (a relay passes it on unchanged).
    const answer = checked(
      ElicitResultSchema,
      await handler(params as ElicitRequest['params'], context(owner, signal)),
      'Invalid elicitation result',
    ) as ElicitResult;
    const requested = (request as { requestedSchema?: unknown }).requestedSchema;
    if (
      mode === 'form' &&
      answer.action === 'accept' &&
      answer.content !== undefined &&
      capabilities.elicitation?.form?.applyDefaults === true
    ) {
      applyDefaults(requested, answer.content);
    }
    return answer;
  };

  const sample = async (
    params: Record<string, unknown> | undefined,
    owner: RequestOwner | undefined,
    signal: AbortSignal,
  ): Promise<CreateMessageResult> => {
    const handler = owner?.handlers.onSampling ?? client.sampling;
    if (handler === undefined) throw missing('sampling/createMessage');
    const request = checked(CreateMessageRequestParamsSchema, params, 'Invalid sampling request');
    const withTools = request.tools !== undefined || request.toolChoice !== undefined;
    return checked(
      withTools ? CreateMessageResultWithToolsSchema : CreateMessageResultSchema,
      await handler(params as CreateMessageRequest['params'], context(owner, signal)),
      'Invalid sampling result',
    ) as CreateMessageResult;
  };

  const listRoots = async (
    owner: RequestOwner | undefined,
    signal: AbortSignal,
  ): Promise<{ roots: Root[] }> => {
    const own = owner?.handlers.onListRoots;
    if (own !== undefined) return { roots: await own(context(owner, signal)) };
    const roots = client.roots;
    if (roots === undefined) throw missing('roots/list');
    return { roots: typeof roots === 'function' ? await roots() : roots };
  };

  return (method, params, owner, signal) => {
    switch (method) {
      case 'elicitation/create':
        return elicit(params, owner, signal);
      case 'sampling/createMessage':
        return sample(params, owner, signal);
      case 'roots/list':
        return listRoots(owner, signal);
      default:
        return Promise.reject(new ProtocolError(JsonRpcErrorCode.MethodNotFound, 'Method not found'));
    }
  };
}

/** Parses `value` with a spec schema; an invalid one is the `Invalid params` error the server gets. */
function checked<T>(
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: Error } },
  value: unknown,
  what: string,
): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ProtocolError(-32_602, `${what}: ${parsed.error.message}`);
  return parsed.data;
}

/** Fills the fields a form answer left out from the requested schema's defaults (SEP-1034), nested ones too. */
function applyDefaults(schema: unknown, data: unknown): void {
  if (typeof schema !== 'object' || schema === null || typeof data !== 'object' || data === null) return;
  const node = schema as { type?: unknown; properties?: unknown; anyOf?: unknown; oneOf?: unknown };
  if (node.type === 'object' && typeof node.properties === 'object' && node.properties !== null) {
    const target = data as Record<string, unknown>;
    for (const [key, property] of Object.entries(node.properties as Record<string, unknown>)) {
      if (typeof property !== 'object' || property === null) continue;
      if (target[key] === undefined && Object.hasOwn(property, 'default')) {
        target[key] = (property as { default: unknown }).default;
      }
      if (target[key] !== undefined) applyDefaults(property, target[key]);
    }
  }
  for (const branches of [node.anyOf, node.oneOf]) {
    if (Array.isArray(branches)) for (const branch of branches) applyDefaults(branch, data);
  }
}
