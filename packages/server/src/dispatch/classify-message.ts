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
  UnsupportedProtocolVersionError,
} from '@modelcontextprotocol/server';
import type { WireError } from '../errors/to-wire-error.js';
import { echoableId } from '../protocol/json-rpc-message.js';
import { isServedModernVersion, modernProtocolVersions } from '../protocol/protocol-versions.js';
import { type RequestEnvelope, readRequestEnvelope } from '../protocol/request-envelope.js';

/** Where a message goes. */
export type MessageRoute =
  | { kind: 'reject'; httpStatus: number; id: string | number | null; error: WireError }
  | { kind: 'modern-request'; message: JSONRPCRequest; envelope: RequestEnvelope }
  | { kind: 'modern-notification'; message: JSONRPCNotification }
  | { kind: 'legacy' };

/** Classifies one message (its body parsed once, its headers when HTTP). */
export function classifyMessage(input: InboundHttpRequest): MessageRoute {
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
