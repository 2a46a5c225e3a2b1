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
 * values (no serialising of each request's envelope): envelopes are bucketed by a short key of
 * their strings, then compared structurally. `classify-message.test.ts` checks the routes equal
 * the SDK's over the fuzz corpus.
 */
interface AcceptedEnvelope {
  capabilities: unknown;
  clientInfo: unknown;
  logLevel: unknown;
}

const acceptedEnvelopes = new Map<string, AcceptedEnvelope[]>();
/** Bounds the memory a client sending ever new envelopes can take. */
const maxAcceptedEnvelopes = 256;
/** Envelopes larger than this (serialised) are not remembered: comparing them stays cheap. */
const maxEnvelopeLength = 2048;
let acceptedCount = 0;

/** The parts of a shape-checked request's envelope the memo keys on; undefined when it cannot take the shortcut. */
function envelopeOf(input: InboundHttpRequest): { bucket: string; envelope: AcceptedEnvelope } | undefined {
  const body = input.body as { id?: unknown; method?: unknown; params?: { _meta?: Record<string, unknown> } };
  // Requests only (they have an id): notifications are rare and keep the SDK's answer.
  if (body.id === undefined) return undefined;
  const meta = body.params?._meta;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const version = meta[PROTOCOL_VERSION_META_KEY];
  if (typeof version !== 'string' || version !== input.protocolVersionHeader) return undefined;
  if (input.mcpMethodHeader !== undefined && input.mcpMethodHeader !== body.method) return undefined;
  const clientInfo = meta[CLIENT_INFO_META_KEY];
  const logLevel = meta[LOG_LEVEL_META_KEY];
  const info =
    typeof clientInfo === 'object' && clientInfo !== null
      ? (clientInfo as Record<string, unknown>)
      : undefined;
  // The bucket only narrows the search; equality is decided structurally below.
  const bucket = `${version}|${input.mcpMethodHeader === undefined ? 0 : 1}|${typeof logLevel === 'string' ? logLevel : typeof logLevel}|${typeof info?.name === 'string' ? info.name : ''}|${typeof info?.version === 'string' ? info.version : ''}`;
  return { bucket, envelope: { capabilities: meta[CLIENT_CAPABILITIES_META_KEY], clientInfo, logLevel } };
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

function isAccepted(found: { bucket: string; envelope: AcceptedEnvelope }): boolean {
  const remembered = acceptedEnvelopes.get(found.bucket);
  if (remembered === undefined) return false;
  const { capabilities, clientInfo, logLevel } = found.envelope;
  for (const accepted of remembered) {
    if (
      sameJson(accepted.capabilities, capabilities) &&
      sameJson(accepted.clientInfo, clientInfo) &&
      sameJson(accepted.logLevel, logLevel)
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
  const found = envelopeOf(input);
  return found !== undefined && isAccepted(found) ? modernRoute(input.body as JSONRPCRequest) : undefined;
}

function modernRoute(message: JSONRPCRequest): MessageRoute {
  return { kind: 'modern-request', message, envelope: readRequestEnvelope(message.params) };
}

function rememberEnvelope(found: { bucket: string; envelope: AcceptedEnvelope } | undefined): void {
  if (found === undefined) return;
  const serialised = JSON.stringify(found.envelope);
  if (serialised === undefined || serialised.length > maxEnvelopeLength) return;
  if (acceptedCount >= maxAcceptedEnvelopes) {
    acceptedEnvelopes.clear();
    acceptedCount = 0;
  }
  // A copy: the handler may change the request's objects after the memo saw them.
  const copy = JSON.parse(serialised) as AcceptedEnvelope;
  const bucket = acceptedEnvelopes.get(found.bucket);
  if (bucket === undefined) acceptedEnvelopes.set(found.bucket, [copy]);
  else bucket.push(copy);
  acceptedCount += 1;
}

/**
 * Classifies one message (its body parsed once, its headers when HTTP). `shapeChecked`: the body
 * passed `checkJsonRpcMessage`, so a plain 2025 message, or a request whose envelope the SDK
 * accepted before, is routed without the SDK's second parse.
 */
export function classifyMessage(input: InboundHttpRequest, shapeChecked = false): MessageRoute {
  let found: { bucket: string; envelope: AcceptedEnvelope } | undefined;
  if (shapeChecked) {
    if (isPlainLegacyMessage(input.body, input.protocolVersionHeader)) return legacyRoute;
    found = envelopeOf(input);
    if (found !== undefined && isAccepted(found)) return modernRoute(input.body as JSONRPCRequest);
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
  rememberEnvelope(found);
  return modernRoute(outcome.message);
}
