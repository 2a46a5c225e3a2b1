/**
 * The per-request `_meta` envelope of the 2026-07-28 era: protocol version, client capabilities,
 * client info and log level. The SDK's classifier has validated it by the time this reads it.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  type ClientCapabilities,
  type Implementation,
  LOG_LEVEL_META_KEY,
  type LoggingLevel,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/server';

/** What a modern request says about its client, read from `params._meta`. */
export interface RequestEnvelope {
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  /** Self-reported, for display and logs only (a SHOULD since spec PR #3002). */
  clientInfo?: Implementation;
  /** The level of `notifications/message` the client wants for this request; absent: none. */
  logLevel?: LoggingLevel;
}

/** Reads the envelope of an (already validated) modern request's params. */
export function readRequestEnvelope(params: unknown): RequestEnvelope {
  const meta = (params as { _meta?: Record<string, unknown> } | undefined)?._meta ?? {};
  const envelope: RequestEnvelope = {
    protocolVersion: String(meta[PROTOCOL_VERSION_META_KEY]),
    clientCapabilities: (meta[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ?? {},
  };
  const clientInfo = meta[CLIENT_INFO_META_KEY] as Implementation | undefined;
  if (clientInfo !== undefined) envelope.clientInfo = clientInfo;
  const logLevel = meta[LOG_LEVEL_META_KEY] as LoggingLevel | undefined;
  if (logLevel !== undefined) envelope.logLevel = logLevel;
  return envelope;
}
