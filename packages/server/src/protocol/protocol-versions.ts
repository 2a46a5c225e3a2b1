/**
 * The protocol revisions this server speaks, by era. The 2025 family comes from the SDK
 * (`SUPPORTED_PROTOCOL_VERSIONS`); the SDK exports no list of modern revisions, so it is kept here.
 */
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';

/** The wire era of a request: `legacy` (2024-11-05 … 2025-11-25, `initialize`) or `modern` (2026-07-28, stateless). */
export type ProtocolEra = 'legacy' | 'modern';

/** Revisions of the 2026 era this server serves. */
export const modernProtocolVersions: readonly string[] = ['2026-07-28'];

/** Revisions of the 2025 era this server serves (newest first). */
export const legacyProtocolVersions: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;

/** The newest 2025-era revision (what `initialize` answers a client that offers an unknown one). */
export const latestLegacyProtocolVersion: string = LATEST_PROTOCOL_VERSION;

/** Every revision this server serves, modern first (`server/discover`'s `supportedVersions`). */
export const allProtocolVersions: readonly string[] = [...modernProtocolVersions, ...legacyProtocolVersions];

/** True for a revision of the modern era that this server serves. */
export function isServedModernVersion(version: string | undefined): boolean {
  return version !== undefined && modernProtocolVersions.includes(version);
}

/** The revision `initialize` settles on: the client's when served, else the newest legacy one. */
export function negotiateLegacyVersion(offered: unknown): string {
  return typeof offered === 'string' && legacyProtocolVersions.includes(offered)
    ? offered
    : latestLegacyProtocolVersion;
}

/**
 * Whether a 2025 session of this revision may get SSE priming events (an event id with empty
 * data): clients before 2025-11-25 choke on empty data.
 */
export function supportsSsePriming(version: string | undefined): boolean {
  return version !== undefined && legacyProtocolVersions.includes(version) && version >= '2025-11-25';
}
