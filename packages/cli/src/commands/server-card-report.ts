/**
 * A server's Server Card (SEP-2127) as `inspect` and `doctor` show it: read before connecting, for
 * servers reached by URL, and checked against what the connection then negotiated (a card is
 * advisory: a client prefers what it sees live, and says where the two disagree).
 */
import { cardEndpoint, fetchServerCard, type ServerConfig } from '@switchboard/client';

/** What `inspect --json` and `doctor --json` say of a card. */
export interface ServerCardReport {
  /** Where the card was read. */
  url: string;
  name: string;
  version: string;
  title?: string;
  description?: string;
  /** The endpoint the card declares (its first Streamable HTTP remote, else SSE). */
  endpoint?: string;
  /** The protocol versions that endpoint declares. */
  protocolVersions?: string[];
}

/** The card of a URL server; `null` when it publishes none; `undefined` for a stdio server. */
export async function readServerCard(entry: ServerConfig): Promise<ServerCardReport | null | undefined> {
  if (typeof entry.url !== 'string') return undefined;
  const lookup = await fetchServerCard(entry.url, {
    ...(entry.headers !== undefined ? { headers: entry.headers as Record<string, string> } : {}),
    timeoutMs: 5_000,
  }).catch(() => undefined);
  if (lookup === undefined) return null;
  const { card } = lookup;
  const remote = cardEndpoint(card);
  return {
    url: lookup.url,
    name: card.name,
    version: card.version,
    ...(card.title !== undefined ? { title: card.title } : {}),
    ...(card.description !== undefined ? { description: card.description } : {}),
    ...(remote !== undefined ? { endpoint: remote.url } : {}),
    ...(remote?.supportedProtocolVersions !== undefined
      ? { protocolVersions: remote.supportedProtocolVersions }
      : {}),
  };
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
