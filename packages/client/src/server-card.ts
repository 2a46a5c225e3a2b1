/**
 * Server Cards (SEP-2127) on the client side: reading a server's card before connecting, and using
 * what it declares when a config gives only a site's URL.
 *
 * Where a card is looked for, in order: `<url>/server-card` (the extension's recommended location,
 * for a URL with a path), the site's MCP Catalog (`/.well-known/mcp/catalog.json`: the entry of a
 * card type, the one whose card names this endpoint if several), then
 * `/.well-known/mcp/server-card.json` (earlier drafts). A card is advisory: it is checked for shape,
 * never trusted for security, and what the connection negotiates wins.
 *
 * Used when connecting (`resolveEntryFromCard`): an entry with only a `url` whose path is empty
 * (`https://mcp.example.com`, a site rather than an endpoint) gets the card's endpoint (its first
 * `streamable-http` remote, else `sse`), and, when that endpoint lists protocol versions and none of
 * them is a 2026-07-28 one, the newest 2025 version it lists is pinned, so the client goes straight
 * to `initialize` instead of probing.
 */
import type { Logger } from '@switchboard/core';
import type { ServerEntry } from './config/server-entry.js';
import { legacyProtocolVersions, modernProtocolVersions } from './protocol-version.js';

/** The media type of a Server Card. */
export const serverCardMediaType = 'application/mcp-server-card+json';

/** One remote endpoint a card declares. */
export interface ServerCardRemote {
  type: 'streamable-http' | 'sse' | (string & {});
  url: string;
  supportedProtocolVersions?: string[];
  headers?: Array<{ name: string; description?: string; isRequired?: boolean; isSecret?: boolean }>;
}

/** A Server Card, as far as the client reads it (other fields are kept as they came). */
export interface ServerCard {
  $schema?: string;
  name: string;
  version: string;
  description?: string;
  title?: string;
  websiteUrl?: string;
  remotes?: ServerCardRemote[];
  [key: string]: unknown;
}

/** A card found, and where. */
export interface ServerCardLookup {
  card: ServerCard;
  /** The URL it was read from. */
  url: string;
}

/** Options of {@link fetchServerCard}. */
export interface FetchServerCardOptions {
  /** Headers sent with each request (a token, when the site wants one). @default none */
  headers?: Record<string, string>;
  /** How long each request may take. @default 5000 */
  timeoutMs?: number;
  /** Stops looking. */
  signal?: AbortSignal;
  /** @default globalThis.fetch */
  fetch?: typeof globalThis.fetch;
}

/** Reads the Server Card of the server at `url` (an endpoint or a site); `undefined` when it publishes none. */
export async function fetchServerCard(
  url: string | URL,
  options: FetchServerCardOptions = {},
): Promise<ServerCardLookup | undefined> {
  const base = new URL(url);
  const endpoint = base.pathname.replace(/\/+$/, '');
  const get = (target: string, accept: string) => getJson(target, accept, options);
  if (endpoint !== '') {
    const direct = `${base.origin}${endpoint}/server-card`;
    const card = asCard(await get(direct, serverCardMediaType));
    if (card !== undefined) return { card, url: direct };
  }
  const catalog = await get(`${base.origin}/.well-known/mcp/catalog.json`, 'application/json');
  const entries = (catalog as { entries?: unknown } | undefined)?.entries;
  if (Array.isArray(entries)) {
    const cards: ServerCardLookup[] = [];
    for (const entry of entries as Array<{ type?: unknown; url?: unknown }>) {
      if (entry?.type !== serverCardMediaType || typeof entry.url !== 'string') continue;
      const target = new URL(entry.url, base).href;
      const card = asCard(await get(target, serverCardMediaType));
      if (card !== undefined) cards.push({ card, url: target });
    }
    const own = cards.find(({ card }) =>
      card.remotes?.some((remote) => endpoint !== '' && sameEndpoint(remote.url, base)),
    );
    if (own !== undefined || cards[0] !== undefined) return own ?? cards[0];
  }
  const wellKnown = `${base.origin}/.well-known/mcp/server-card.json`;
  const card = asCard(await get(wellKnown, serverCardMediaType));
  return card === undefined ? undefined : { card, url: wellKnown };
}

/** The remote of a card a client connects to: its first Streamable HTTP endpoint, else its first SSE one. */
export function cardEndpoint(card: ServerCard): ServerCardRemote | undefined {
  const remotes = (card.remotes ?? []).filter((remote) => /^https?:\/\//.test(remote.url));
  return (
    remotes.find((remote) => remote.type === 'streamable-http') ??
    remotes.find((remote) => remote.type === 'sse')
  );
}

/** What a card says, in short, as `inspect`, `doctor` and `switchboard ui` show it. */
export interface ServerCardSummary {
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

/** The summary of a card found by {@link fetchServerCard}. */
export function summarizeServerCard(lookup: ServerCardLookup): ServerCardSummary {
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
      ? { protocolVersions: [...remote.supportedProtocolVersions] }
      : {}),
  };
}

/**
 * The summary of the card of a server reached by URL (its config's headers sent along): `null` when
 * it publishes none (or it cannot be read), `undefined` for a server without a URL (stdio).
 */
export async function readServerCardSummary(
  entry: Pick<ServerEntry, 'url' | 'headers'>,
  options: Pick<FetchServerCardOptions, 'timeoutMs' | 'signal'> = {},
): Promise<ServerCardSummary | null | undefined> {
  if (typeof entry.url !== 'string') return undefined;
  const lookup = await fetchServerCard(entry.url, {
    ...options,
    ...(entry.headers !== undefined ? { headers: entry.headers as Record<string, string> } : {}),
  }).catch(() => undefined);
  return lookup === undefined ? null : summarizeServerCard(lookup);
}

/** The protocol version to pin for a remote: the newest 2025 one it lists when it lists no 2026-07-28 one. */
export function cardProtocolPin(remote: ServerCardRemote): string | undefined {
  const listed = remote.supportedProtocolVersions;
  if (listed === undefined || listed.length === 0) return undefined;
  if (listed.some((version) => modernProtocolVersions.includes(version))) return undefined;
  return legacyProtocolVersions.find((version) => listed.includes(version));
}

/** Whether an entry gives only a site's URL (no path, transport type or version): a card says the rest. */
export function needsServerCard(entry: ServerEntry): boolean {
  if (typeof entry.url !== 'string' || entry.command !== undefined) return false;
  if (entry.type !== undefined || entry.protocolVersion !== undefined) return false;
  try {
    return new URL(entry.url).pathname.replace(/\/+$/, '') === '';
  } catch {
    return false;
  }
}

/**
 * An entry with the endpoint (and, where the card says so, the protocol version) its site's card
 * declares; the entry unchanged when it needs no card or the site publishes none.
 */
export async function resolveEntryFromCard(
  name: string,
  entry: ServerEntry,
  options: { logger: Logger; timeoutMs?: number },
): Promise<ServerEntry> {
  if (!needsServerCard(entry)) return entry;
  const lookup = await fetchServerCard(entry.url as string, {
    ...(entry.headers !== undefined ? { headers: entry.headers } : {}),
    timeoutMs: options.timeoutMs ?? 5_000,
  }).catch(() => undefined);
  const remote = lookup === undefined ? undefined : cardEndpoint(lookup.card);
  if (lookup === undefined || remote === undefined) return entry;
  const pin = cardProtocolPin(remote);
  options.logger.info(
    {
      server: name,
      card: lookup.url,
      endpoint: remote.url,
      ...(pin !== undefined ? { protocolVersion: pin } : {}),
    },
    'using the endpoint the server card declares',
  );
  return {
    ...entry,
    url: remote.url,
    type: remote.type === 'sse' ? 'sse' : 'http',
    ...(pin !== undefined ? { protocolVersion: pin } : {}),
  };
}

async function getJson(url: string, accept: string, options: FetchServerCardOptions): Promise<unknown> {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 5_000);
  const signal = options.signal === undefined ? timeout : AbortSignal.any([options.signal, timeout]);
  try {
    const response = await fetchImpl(url, {
      headers: { accept, ...options.headers },
      signal,
      redirect: 'follow',
    });
    if (!response.ok) {
      await response.body?.cancel();
      return undefined;
    }
    return await response.json();
  } catch {
    // No card there (refused, not JSON, too slow): the next place is tried.
    return undefined;
  }
}

/** `value` when it has a card's required shape (`name` and `version` strings, `remotes` an array if present). */
function asCard(value: unknown): ServerCard | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const card = value as Partial<ServerCard>;
  if (typeof card.name !== 'string' || typeof card.version !== 'string') return undefined;
  if (card.remotes !== undefined && !Array.isArray(card.remotes)) return undefined;
  return value as ServerCard;
}

function sameEndpoint(remoteUrl: string, base: URL): boolean {
  try {
    const remote = new URL(remoteUrl);
    return (
      remote.origin === base.origin &&
      remote.pathname.replace(/\/+$/, '') === base.pathname.replace(/\/+$/, '')
    );
  } catch {
    return false;
  }
}
