/**
 * Era classification of one parsed message, for every transport: the SDK's
 * `classifyInboundRequest` (body-primary: the `_meta` envelope claim decides, the
 * `MCP-Protocol-Version` header only cross-checks) followed by the supported-revision gate
 * (-32022 with the revisions this server serves). stdio calls it without headers.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  classifyInboundRequest,
  type InboundHttpRequest,
  type JSONRPCNotification,
  type JSONRPCRequest,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  UnsupportedProtocolVersionError,
} from '@modelcontextprotocol/server';
import type { WireError } from '../errors/to-wire-error.js';
import { echoableId } from '../protocol/json-rpc-message.js';
import { isServedModernVersion, modernProtocolVersions } from '../protocol/protocol-versions.js';
import { type RequestEnvelope, readRequestEnvelope } from '../protocol/request-envelope.js';

const legacyRoute = { kind: 'legacy' } as const;

/** Where a message goes. */
export type MessageRoute =
  | { kind: 'reject'; httpStatus: number; id: string | number | null; error: WireError }
  | { kind: 'modern-request'; message: JSONRPCRequest; envelope: RequestEnvelope }
  | { kind: 'modern-notification'; message: JSONRPCNotification }
  | { kind: 'legacy' };

/** The first revision of the modern era (the SDK's `isModernProtocolVersion` compares against it). */
const firstModernRevision = '2026-07-28';

/**
 * True for a single message that the SDK classifier routes to the 2025 era by its own rules:
 * its params carry no envelope claim (no `_meta[PROTOCOL_VERSION_META_KEY]`) and no
 * `MCP-Protocol-Version` header names a modern revision. The classifier's JSON-RPC guards parse
 * the whole body with zod (several µs, more than a simple tool call); a message already shape-checked
 * (`checkJsonRpcMessage`) that meets this needs no second look. `classify-message.test.ts` checks
 * that the answer equals the SDK's over the fuzz corpus.
 */
export function isPlainLegacyMessage(body: unknown, protocolVersionHeader: string | undefined): boolean {
  if (protocolVersionHeader !== undefined && protocolVersionHeader.trim() >= firstModernRevision)
    return false;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const meta = (body as { params?: { _meta?: unknown } }).params?._meta;
  return !(typeof meta === 'object' && meta !== null && PROTOCOL_VERSION_META_KEY in meta);
}

/**
 * The envelopes of 2026-07-28 requests the SDK's classifier accepted, keyed by what it checks in
 * them (the reserved `_meta` keys, the version header, the method header). A client sends the same
 * envelope on every request, and the classifier validates it with zod each time: about 15 µs of a
 * 2026-07-28 call here, more than the rest of the server's work on an echo. A shape-checked request
 * whose envelope was accepted before is routed at once; anything else — a first request, another
 * envelope, a header that disagrees — goes to the SDK. `classify-message.test.ts` checks the
 * routes equal the SDK's over the fuzz corpus.
 */
const acceptedEnvelopes = new Set<string>();
/** Bounds the memory a client sending ever new envelopes can take. */
const maxAcceptedEnvelopes = 256;
const maxEnvelopeKeyLength = 2048;

/** The memo key of a shape-checked request's envelope, or undefined when it cannot take the shortcut. */
function requestEnvelopeKey(input: InboundHttpRequest): string | undefined {
  const body = input.body as { id?: unknown; method?: unknown; params?: { _meta?: Record<string, unknown> } };
  // Requests only (they have an id): notifications are rare and keep the SDK's answer.
  if (body.id === undefined) return undefined;
  const meta = body.params?._meta;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const version = meta[PROTOCOL_VERSION_META_KEY];
  if (typeof version !== 'string' || version !== input.protocolVersionHeader) return undefined;
  if (input.mcpMethodHeader !== undefined && input.mcpMethodHeader !== body.method) return undefined;
  const key = JSON.stringify([
    version,
    input.mcpMethodHeader === undefined,
    meta[CLIENT_CAPABILITIES_META_KEY],
    meta[CLIENT_INFO_META_KEY],
    meta[LOG_LEVEL_META_KEY],
  ]);
  return key.length <= maxEnvelopeKeyLength ? key : undefined;
}

/**
 * The route of a shape-checked request whose envelope the SDK accepted before; undefined when the
 * SDK must look (exported for the test that holds it to the SDK's answers).
 */
export function rememberedModernRoute(input: InboundHttpRequest): MessageRoute | undefined {
  const key = requestEnvelopeKey(input);
  return key !== undefined && acceptedEnvelopes.has(key)
    ? modernRoute(input.body as JSONRPCRequest)
    : undefined;
}

function modernRoute(message: JSONRPCRequest): MessageRoute {
  return { kind: 'modern-request', message, envelope: readRequestEnvelope(message.params) };
}

function rememberEnvelope(key: string | undefined): void {
  if (key === undefined) return;
  if (acceptedEnvelopes.size >= maxAcceptedEnvelopes) acceptedEnvelopes.clear();
  acceptedEnvelopes.add(key);
}

/**
 * Classifies one message (its body parsed once, its headers when HTTP). `shapeChecked`: the body
 * passed `checkJsonRpcMessage`, so a plain 2025 message, or a request whose envelope the SDK
 * accepted before, is routed without the SDK's second parse.
 */
export function classifyMessage(input: InboundHttpRequest, shapeChecked = false): MessageRoute {
  let key: string | undefined;
  if (shapeChecked) {
    if (isPlainLegacyMessage(input.body, input.protocolVersionHeader)) return legacyRoute;
    key = requestEnvelopeKey(input);
    if (key !== undefined && acceptedEnvelopes.has(key)) return modernRoute(input.body as JSONRPCRequest);
  }
  const outcome = classifyInboundRequest(input);
  if (outcome.kind === 'legacy') return { kind: 'legacy' };
  if (outcome.kind === 'reject') {
    const error: WireError = { code: outcome.code, message: outcome.message };
    if (outcome.data !== undefined) error.data = outcome.data;
    return { kind: 'reject', httpStatus: outcome.httpStatus, id: echoableId(input.body), error };
  }
  if (outcome.messageKind === 'notification')
    return { kind: 'modern-notification', message: outcome.message };
  const revision = outcome.classification.revision;
  if (!isServedModernVersion(revision)) {
    // The envelope names a revision this server does not serve (an unknown future one, or a
    // 2025 revision sent the 2026 way): the error lists what it serves.
    const error = new UnsupportedProtocolVersionError({
      supported: [...modernProtocolVersions],
      requested: revision ?? 'unknown',
    });
    return {
      kind: 'reject',
      httpStatus: 400,
      id: outcome.message.id,
      error: { code: error.code, message: error.message, data: error.data },
    };
  }
  rememberEnvelope(key);
  return modernRoute(outcome.message);
}
