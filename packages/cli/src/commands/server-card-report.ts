/**
 * A server's Server Card (SEP-2127) as `inspect` and `doctor` show it: read before connecting, for
 * servers reached by URL, and checked against what the connection then negotiated (a card is
 * advisory: a client prefers what it sees live, and says where the two disagree).
 */
import { readServerCardSummary, type ServerCardSummary, type ServerConfig } from '@switchboard/client';

/** What `inspect --json` and `doctor --json` say of a card (the client's summary of it). */
export type ServerCardReport = ServerCardSummary;

/** The card of a URL server; `null` when it publishes none; `undefined` for a stdio server. */
export function readServerCard(entry: ServerConfig): Promise<ServerCardReport | null | undefined> {
  return readServerCardSummary(entry, { timeoutMs: 5_000 });
}

/** One line on a card, and a second when it disagrees with the negotiated version. */
export function describeServerCard(
  report: ServerCardReport | null,
  negotiated: { protocolVersion?: string | undefined; version?: string | undefined },
): string[] {
  if (report === null) return ['card: none published (<endpoint>/server-card, /.well-known/mcp/…)'];
  const lines = [
    `card: ${report.name} ${report.version}${report.endpoint ? ` → ${report.endpoint}` : ''}${report.protocolVersions ? ` (MCP ${report.protocolVersions.join(', ')})` : ''}  [${report.url}]`,
  ];
  const version = negotiated.protocolVersion;
  if (
    version !== undefined &&
    report.protocolVersions !== undefined &&
    !report.protocolVersions.includes(version)
  )
    lines.push(`card disagrees: the connection negotiated MCP ${version}, which the card does not list`);
  if (negotiated.version !== undefined && negotiated.version !== report.version)
    lines.push(`card disagrees: the server says version ${negotiated.version}, the card ${report.version}`);
  return lines;
}
