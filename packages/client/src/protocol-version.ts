/**
 * Which protocol versions a client offers, and how a server entry's `protocolVersion` pin turns
 * into the SDK Client's version negotiation: no pin probes the modern era first and falls back to
 * `initialize` (`'auto'`); a modern pin speaks only that revision; a 2025 pin runs `initialize`
 * offering it (the server may still answer with another 2025 version it supports).
 */
import { SUPPORTED_PROTOCOL_VERSIONS, type VersionNegotiationOptions } from '@modelcontextprotocol/client';
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

/** The SDK Client options a pin (or its absence) amounts to. */
export interface NegotiationSettings {
  versionNegotiation: VersionNegotiationOptions;
  /** Set for a 2025 pin: the pinned version first, so `initialize` offers it. */
  supportedProtocolVersions?: string[];
}

/** Translates a checked pin into the SDK's negotiation options; `probeTimeoutMs` bounds the probe. */
export function negotiationFor(pin: string | undefined, probeTimeoutMs: number): NegotiationSettings {
  const probe = { timeoutMs: probeTimeoutMs };
  if (pin === undefined) return { versionNegotiation: { mode: 'auto', probe } };
  if (eraOf(pin) === 'modern') return { versionNegotiation: { mode: { pin }, probe } };
  return {
    versionNegotiation: { mode: 'legacy' },
    supportedProtocolVersions: [pin, ...legacyProtocolVersions.filter((version) => version !== pin)],
  };
}
