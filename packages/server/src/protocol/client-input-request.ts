/**
 * The three things a server may ask a client for mid-call (elicitation, sampling, roots), as one
 * shape for both eras: 2025 sends them as server→client requests, 2026-07-28 embeds them in an
 * input-required result. Each needs a client capability, and each answer has a shape to check.
 */
import {
  CreateMessageResultSchema,
  CreateMessageResultWithToolsSchema,
  ElicitResultSchema,
  ListRootsResultSchema,
} from '@modelcontextprotocol/core';
import type { ClientCapabilities } from '@modelcontextprotocol/server';

/** Methods a server may ask a client to run. */
export type ClientInputMethod = 'elicitation/create' | 'sampling/createMessage' | 'roots/list';

/** One request for client input. */
export interface ClientInputRequest {
  method: ClientInputMethod;
  params?: Record<string, unknown>;
}

const capabilityOf: Readonly<Record<ClientInputMethod, keyof ClientCapabilities>> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/** True for one of the three client-input methods. */
export function isClientInputMethod(method: unknown): method is ClientInputMethod {
  return typeof method === 'string' && Object.hasOwn(capabilityOf, method);
}

/**
 * The capabilities `requests` need that `declared` lacks, in the `ClientCapabilities` shape the
 * -32021 error's `requiredCapabilities` carries (`{ sampling: {} }`); undefined when none is missing.
 */
export function missingClientCapabilities(
  requests: Iterable<ClientInputRequest>,
  declared: ClientCapabilities | undefined,
): ClientCapabilities | undefined {
  let missing: Record<string, object> | undefined;
  for (const request of requests) {
    const capability = capabilityOf[request.method];
    if (capability === undefined || declared?.[capability] !== undefined) continue;
    missing ??= {};
    missing[capability] = {};
  }
  return missing as ClientCapabilities | undefined;
}

/**
 * True when `response` has the shape of an answer to `request` (an elicitation result, a sampling
 * result, a roots listing). Answers arrive from the client and are untrusted.
 */
export function isValidClientInputResponse(request: ClientInputRequest, response: unknown): boolean {
  if (typeof response !== 'object' || response === null || Array.isArray(response)) return false;
  switch (request.method) {
    case 'elicitation/create':
      return ElicitResultSchema.safeParse(response).success;
    case 'sampling/createMessage':
      return (
        CreateMessageResultSchema.safeParse(response).success ||
        CreateMessageResultWithToolsSchema.safeParse(response).success
      );
    case 'roots/list':
      return ListRootsResultSchema.safeParse(response).success;
  }
}
