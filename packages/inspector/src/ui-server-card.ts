/**
 * A server's Server Card (SEP-2127) as the page shows it: read from the server itself with its
 * config's headers (so a card shows even while the connection fails, e.g. to tell which endpoint
 * and protocol versions the server says it has), without secrets: the URL it was read from keeps
 * its origin and path only (a query may carry a token), and every text goes through the session's
 * redaction.
 */
import { readServerCardSummary, type ServerConfig } from '@switchboard/client';
import type { UiServerCard } from './ui-api.js';

/** How long reading a card may take before the page is told there is none. */
const cardTimeoutMs = 5_000;

/** The card of the server configured as `entry`. */
export async function readUiServerCard(
  entry: ServerConfig,
  redact: (text: string) => string,
): Promise<UiServerCard> {
  const summary = await readServerCardSummary(entry, { timeoutMs: cardTimeoutMs });
  if (summary === undefined) return { status: 'not-remote' };
  if (summary === null) return { status: 'none' };
  return {
    status: 'found',
    card: {
      url: redact(withoutQuery(summary.url)),
      name: redact(summary.name),
      version: redact(summary.version),
      ...(summary.title !== undefined ? { title: redact(summary.title) } : {}),
      ...(summary.description !== undefined ? { description: redact(summary.description) } : {}),
      ...(summary.endpoint !== undefined ? { endpoint: redact(withoutQuery(summary.endpoint)) } : {}),
      ...(summary.protocolVersions !== undefined ? { protocolVersions: summary.protocolVersions } : {}),
    },
  };
}

function withoutQuery(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return 'an invalid URL';
  }
}
