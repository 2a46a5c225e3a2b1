/**
 * Resources: lists fan out to every provider (the server's own, a gateway's upstreams), a read goes
 * to the first provider that serves the URI, subscriptions (2025) are counted per URI.
 */
import {
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/core';
import type {
  Resource,
  ResourceTemplateType as ResourceTemplate,
  Result,
} from '@modelcontextprotocol/server';
import type { ProviderContext } from '../../catalog/content-provider.js';
import { ServerError, ServerErrorCode } from '../../errors/server-error.js';
import type { InboundRequest } from '../../request/inbound-request.js';
import { principalNamedBy } from '../../request/request-auth.js';
import type { ServerScope } from '../server-scope.js';
import { checkParams } from './params-check.js';

/** The context providers get for a request. */
export function providerContext(request: InboundRequest): ProviderContext {
  const context: ProviderContext = {
    signal: request.abort.signal,
    era: request.era,
    traceContext: request.traceContext,
  };
  const principal = principalNamedBy(request.auth);
  if (principal !== undefined) context.principal = principal;
  const sessionId = request.session?.id;
  if (sessionId !== undefined) context.sessionId = sessionId;
  return context;
}

/** `resources/list`. */
export async function listResources(request: InboundRequest, scope: ServerScope): Promise<Result> {
  checkParams(ListResourcesRequestSchema, request);
  const context = providerContext(request);
  const lists = await Promise.all(scope.resourceProviders.map((provider) => provider.listResources(context)));
  return { resources: lists.flat() as Resource[] };
}

/** `resources/templates/list`. */
export async function listResourceTemplates(request: InboundRequest, scope: ServerScope): Promise<Result> {
  checkParams(ListResourceTemplatesRequestSchema, request);
  const context = providerContext(request);
  const lists = await Promise.all(
    scope.resourceProviders.map((provider) => provider.listResourceTemplates(context)),
  );
  return { resourceTemplates: lists.flat() as ResourceTemplate[] };
}

/** The -32602 error for a URI nothing serves (both eras answer -32602 with the URI in data). */
export function resourceNotFound(uri: string): ServerError {
  return new ServerError({
    code: ServerErrorCode.ResourceNotFound,
    message: `Resource not found: "${uri}" (no resource or template of this server serves it); call resources/list and resources/templates/list for what it serves.`,
    data: { uri },
    context: { uri },
  });
}

/** `resources/read`. */
export async function readResource(request: InboundRequest, scope: ServerScope): Promise<Result> {
  const { uri } = checkParams(ReadResourceRequestSchema, request);
  const context = providerContext(request);
  for (const provider of scope.resourceProviders) {
    const result = await provider.readResource(uri, context);
    if (result !== undefined) return result as Result;
  }
  throw resourceNotFound(uri);
}

/** `resources/subscribe` (2025): the session is told of updates of the URI. */
export async function subscribeResource(request: InboundRequest, scope: ServerScope): Promise<Result> {
  const { uri } = checkParams(SubscribeRequestSchema, request);
  const session = request.session;
  // A stateless request has nowhere to be told of updates: accepted, as there is nothing to keep.
  if (session === undefined || session.subscriptions.has(uri)) return {};
  await scope.subscriptions.add(uri);
  session.subscriptions.add(uri);
  return {};
}

/** `resources/unsubscribe` (2025). */
export async function unsubscribeResource(request: InboundRequest, scope: ServerScope): Promise<Result> {
  const { uri } = checkParams(UnsubscribeRequestSchema, request);
  const session = request.session;
  if (session?.subscriptions.delete(uri)) await scope.subscriptions.remove(uri);
  return {};
}
