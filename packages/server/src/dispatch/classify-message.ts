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
 * The envelopes of 2026-07-28 requests the SDK's classifier accepted: what it checks in them (the
 * reserved `_meta` keys, the version header, whether a method header came). A client sends the
 * same envelope on every request, and the classifier validates it with zod each time: about 15 µs
 * of a 2026-07-28 call here, more than the rest of the server's work on an echo. A shape-checked
 * request whose envelope equals one accepted before is routed at once; anything else — a first
 * request, another envelope, a header that disagrees — goes to the SDK. The memo compares parsed
 * values, grouped by the client's name (no serialising of each request's envelope).
 * `classify-message.test.ts` checks the routes equal the SDK's over the fuzz corpus.
 */
interface AcceptedEnvelope {
  version: string;
  /** Whether the request came with an `Mcp-Method` header (the SDK checks it against the body). */
  methodHeader: boolean;
  capabilities: unknown;
  clientInfo: unknown;
  logLevel: unknown;
}

/** Accepted envelopes by client name ('' for none). */
const acceptedEnvelopes = new Map<string, AcceptedEnvelope[]>();
/** Bounds the memory a client sending ever new envelopes can take. */
const maxAcceptedEnvelopes = 256;
/** Envelopes larger than this (serialised) are not remembered: comparing them stays cheap. */
const maxEnvelopeLength = 2048;
let acceptedCount = 0;

/** The `_meta` of a shape-checked request that may take the shortcut; undefined when it cannot. */
function envelopeMetaOf(input: InboundHttpRequest): Record<string, unknown> | undefined {
  const body = input.body as { id?: unknown; method?: unknown; params?: { _meta?: Record<string, unknown> } };
  // Requests only (they have an id): notifications are rare and keep the SDK's answer.
  if (body.id === undefined) return undefined;
  const meta = body.params?._meta;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const version = meta[PROTOCOL_VERSION_META_KEY];
  if (typeof version !== 'string' || version !== input.protocolVersionHeader) return undefined;
  if (input.mcpMethodHeader !== undefined && input.mcpMethodHeader !== body.method) return undefined;
  return meta;
}

function clientNameOf(meta: Record<string, unknown>): string {
  const info = meta[CLIENT_INFO_META_KEY] as { name?: unknown } | null | undefined;
  return typeof info === 'object' && info !== null && typeof info.name === 'string' ? info.name : '';
}

/** Equality of two parsed JSON values (key order aside). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++) if (!sameJson(a[index], b[index])) return false;
    return true;
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if (!Object.hasOwn(b, key)) return false;
    if (!sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}

function isAccepted(meta: Record<string, unknown>, methodHeader: boolean): boolean {
  const remembered = acceptedEnvelopes.get(clientNameOf(meta));
  if (remembered === undefined) return false;
  const version = meta[PROTOCOL_VERSION_META_KEY];
  for (const accepted of remembered) {
    if (
      accepted.version === version &&
      accepted.methodHeader === methodHeader &&
      sameJson(accepted.logLevel, meta[LOG_LEVEL_META_KEY]) &&
      sameJson(accepted.clientInfo, meta[CLIENT_INFO_META_KEY]) &&
      sameJson(accepted.capabilities, meta[CLIENT_CAPABILITIES_META_KEY])
    )
      return true;
  }
  return false;
}

/**
 * The route of a shape-checked request whose envelope the SDK accepted before; undefined when the
 * SDK must look (exported for the test that holds it to the SDK's answers).
 */
export function rememberedModernRoute(input: InboundHttpRequest): MessageRoute | undefined {
  const meta = envelopeMetaOf(input);
  return meta !== undefined && isAccepted(meta, input.mcpMethodHeader !== undefined)
    ? modernRoute(input.body as JSONRPCRequest)
    : undefined;
}

function modernRoute(message: JSONRPCRequest): MessageRoute {
  return { kind: 'modern-request', message, envelope: readRequestEnvelope(message.params) };
}

function rememberEnvelope(meta: Record<string, unknown> | undefined, methodHeader: boolean): void {
  if (meta === undefined) return;
  const parts = {
    capabilities: meta[CLIENT_CAPABILITIES_META_KEY],
    clientInfo: meta[CLIENT_INFO_META_KEY],
    logLevel: meta[LOG_LEVEL_META_KEY],
  };
  const serialised = JSON.stringify(parts);
  if (serialised.length > maxEnvelopeLength) return;
  if (acceptedCount >= maxAcceptedEnvelopes) {
    acceptedEnvelopes.clear();
    acceptedCount = 0;
  }
  // A copy: the handler may change the request's objects after the memo saw them.
  const accepted: AcceptedEnvelope = {
    ...(JSON.parse(serialised) as Pick<AcceptedEnvelope, 'capabilities' | 'clientInfo' | 'logLevel'>),
    version: meta[PROTOCOL_VERSION_META_KEY] as string,
    methodHeader,
  };
  const name = clientNameOf(meta);
  const group = acceptedEnvelopes.get(name);
  if (group === undefined) acceptedEnvelopes.set(name, [accepted]);
  else group.push(accepted);
  acceptedCount += 1;
}

/**
 * Classifies one message (its body parsed once, its headers when HTTP). `shapeChecked`: the body
 * passed `checkJsonRpcMessage`, so a plain 2025 message, or a request whose envelope the SDK
 * accepted before, is routed without the SDK's second parse.
 */
export function classifyMessage(input: InboundHttpRequest, shapeChecked = false): MessageRoute {
  let meta: Record<string, unknown> | undefined;
  const methodHeader = input.mcpMethodHeader !== undefined;
  if (shapeChecked) {
    if (isPlainLegacyMessage(input.body, input.protocolVersionHeader)) return legacyRoute;
    meta = envelopeMetaOf(input);
    if (meta !== undefined && isAccepted(meta, methodHeader))
      return modernRoute(input.body as JSONRPCRequest);
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
  rememberEnvelope(meta, methodHeader);
  return modernRoute(outcome.message);
}
