/**
 * Era classification of one parsed message, for every transport: the SDK's
 * `classifyInboundRequest` (body-primary: the `_meta` envelope claim decides, the
 * `MCP-Protocol-Version` header only cross-checks) followed by the supported-revision gate
 * (-32022 with the revisions this server serves). stdio calls it without headers.
 */
import {
  classifyInboundRequest,
  type InboundHttpRequest,
  type JSONRPCNotification,
  type JSONRPCRequest,
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
 * Classifies one message (its body parsed once, its headers when HTTP). `shapeChecked`: the body
 * passed `checkJsonRpcMessage`, so a plain 2025 message is routed without the SDK's second parse.
 */
export function classifyMessage(input: InboundHttpRequest, shapeChecked = false): MessageRoute {
  if (shapeChecked && isPlainLegacyMessage(input.body, input.protocolVersionHeader)) return legacyRoute;
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
  return {
    kind: 'modern-request',
    message: outcome.message,
    envelope: readRequestEnvelope(outcome.message.params),
  };
}
