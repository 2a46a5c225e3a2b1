/**
 * Which protocol versions a client offers, by era, and the check of a server entry's
 * `protocolVersion` pin (`era-negotiation.ts` is how a pin, or its absence, is negotiated).
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/client';
import { ClientError, ClientErrorCode } from './client-error.js';

/** The protocol eras: `modern` is 2026-07-28 and later (no `initialize`), `legacy` the 2025 handshake. */
export type ProtocolEra = 'modern' | 'legacy';

/** Modern revisions this client speaks (the SDK's own list is not public), newest first. */
export const modernProtocolVersions: readonly string[] = ['2026-07-28'];

/** Legacy revisions this client speaks (the SDK's list), newest first. */
export const legacyProtocolVersions: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;

/** Every protocol version a client can offer or pin, newest first. */
export const supportedProtocolVersions: readonly string[] = [
  ...modernProtocolVersions,
  ...legacyProtocolVersions,
];

/** The era a protocol version belongs to. */
export function eraOf(version: string): ProtocolEra {
  return modernProtocolVersions.includes(version) ? 'modern' : 'legacy';
}

/** Throws a clear error when `version` is not one this client can speak. */
export function checkProtocolVersion(version: string, where: string): void {
  if (supportedProtocolVersions.includes(version)) return;
  throw new ClientError({
    code: ClientErrorCode.UnsupportedProtocolVersion,
    message: `${where}: protocol version "${version}" is not supported. Use one of ${supportedProtocolVersions.join(', ')}, or leave it out to negotiate (modern first, then the 2025 handshake).`,
    context: { protocolVersion: version, supported: [...supportedProtocolVersions] },
  });
}
