/**
 * The Server Card (SEP-2127) of an HTTP server: a discovery document a client reads before it
 * connects, saying what the server is (name, version, title, description), where its endpoint is
 * and which protocol versions it speaks, and that it needs an `Authorization` header when it does.
 * It is derived from the live server on every request, so it is always current: a renamed server,
 * another path, or auth turned on shows at once. It never carries a secret.
 *
 * Where: the extension's recommended location `<endpoint>/server-card`, and under `/.well-known/`
 * the site's MCP Catalog (`/.well-known/mcp/catalog.json`, one entry pointing at the card) and the
 * card itself at `/.well-known/mcp/server-card.json` (the path earlier drafts and many hosts use).
 * Public metadata: no auth, `Access-Control-Allow-Origin: *`, cached briefly.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { allProtocolVersions } from '../protocol/protocol-versions.js';
import type { McpServer } from '../server/mcp-server.js';
import type { HttpConfig } from './http-options.js';

export type { ServerCardOptions } from './server-card-options.js';

/** The JSON Schema URI of the cards this server publishes. */
export const serverCardSchema = 'https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json';

/** The media type of a Server Card. */
export const serverCardMediaType = 'application/mcp-server-card+json';

/** Where the site's catalog is. */
export const mcpCatalogPath = '/.well-known/mcp/catalog.json';

/** The well-known location of the card (earlier drafts; many hosts look there). */
export const wellKnownServerCardPath = '/.well-known/mcp/server-card.json';

/** One remote endpoint of a card. */
export interface ServerCardRemote {
  type: 'streamable-http' | 'sse';
  url: string;
  supportedProtocolVersions?: string[];
  headers?: Array<{ name: string; description?: string; isRequired?: boolean; isSecret?: boolean }>;
}

/** A Server Card (the fields this server writes). */
export interface ServerCard {
  $schema: string;
  name: string;
  version: string;
  description: string;
  title?: string;
  websiteUrl?: string;
  remotes?: ServerCardRemote[];
  [key: string]: unknown;
}

const corsHeaders = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET',
  'access-control-allow-headers': 'Content-Type',
  'cache-control': 'public, max-age=60',
};

/** True when `pathname` is one of the card's locations (or the catalog) for this config. */
export function isServerCardPath(pathname: string, config: HttpConfig): boolean {
  return (
    pathname === endpointCardPath(config) ||
    pathname === wellKnownServerCardPath ||
    pathname === mcpCatalogPath
  );
}

// The endpoint's card path, worked out once per server: every request asks.
const endpointCardPaths = new WeakMap<HttpConfig, string>();

function endpointCardPath(config: HttpConfig): string {
  let path = endpointCardPaths.get(config);
  if (path === undefined) {
    path = `${config.path.replace(/\/+$/, '')}/server-card`;
    endpointCardPaths.set(config, path);
  }
  return path;
}

/** Answers a GET of the card or the catalog (anything but GET or HEAD: 405). */
export function answerServerCard(
  server: McpServer,
  config: HttpConfig,
  request: IncomingMessage,
  response: ServerResponse,
  pathname: string,
): void {
  request.resume();
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { allow: 'GET', ...corsHeaders }).end();
    return;
  }
  const card = buildServerCard(server, config, originOf(request));
  const body =
    pathname === mcpCatalogPath
      ? {
          specVersion: 'draft',
          entries: [
            {
              identifier: `urn:air:${hostnameOf(request)}:${card.name.slice(card.name.indexOf('/') + 1)}`,
              displayName: card.title ?? server.name,
              type: serverCardMediaType,
              url: `${originOf(request)}${config.path.replace(/\/+$/, '')}/server-card`,
            },
          ],
        }
      : card;
  const text = JSON.stringify(body);
  response
    .writeHead(200, {
      'content-type': pathname === mcpCatalogPath ? 'application/json' : serverCardMediaType,
      'content-length': String(Buffer.byteLength(text)),
      ...corsHeaders,
    })
    .end(request.method === 'HEAD' ? undefined : text);
}

/** The card of `server` as served at `origin`. */
export function buildServerCard(server: McpServer, config: HttpConfig, origin: string): ServerCard {
  const options = config.serverCard ?? {};
  const host = new URL(origin).hostname;
  const needsToken = config.bearer !== undefined || config.oauth !== undefined;
  return {
    $schema: serverCardSchema,
    name: options.name ?? `${reverseDns(host)}/${cardNameSegment(server.name)}`,
    version: server.version,
    description: clip(
      options.description ??
        server.info.title ??
        firstLine(server.instructions) ??
        `MCP server ${server.name}`,
    ),
    ...(server.info.title !== undefined ? { title: clip(server.info.title) } : {}),
    ...(options.websiteUrl !== undefined ? { websiteUrl: options.websiteUrl } : {}),
    remotes: [
      {
        type: 'streamable-http',
        url: `${origin}${config.path}`,
        supportedProtocolVersions: [...allProtocolVersions],
        ...(needsToken
          ? {
              headers: [
                {
                  name: 'Authorization',
                  description:
                    config.oauth !== undefined
                      ? 'Bearer token from the authorization server (OAuth; see /.well-known/oauth-protected-resource)'
                      : 'Bearer <token>',
                  isRequired: true,
                  isSecret: true,
                },
              ],
            }
          : {}),
      },
    ],
  };
}

function originOf(request: IncomingMessage): string {
  const forwarded = request.headers['x-forwarded-proto'];
  const scheme =
    (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim() === 'https'
      ? 'https'
      : 'http';
  return `${scheme}://${request.headers.host ?? 'localhost'}`;
}

function hostnameOf(request: IncomingMessage): string {
  return new URL(originOf(request)).hostname;
}

/** `mcp.example.com` → `com.example.mcp`; an IP address or a one-label name stays as it is. */
function reverseDns(host: string): string {
  const bare = host.replace(/^\[|\]$/g, '');
  if (/^[\d.]+$/.test(bare) || bare.includes(':')) return bare.replace(/:/g, '-');
  return bare.split('.').reverse().join('.');
}

/** A server name as the card's name segment allows it (`[a-zA-Z0-9._-]`). */
function cardNameSegment(name: string): string {
  return name.replace(/[^a-zA-Z0-9._-]+/g, '-') || 'mcp';
}

function firstLine(text: string | undefined): string | undefined {
  const line = text?.split('\n').find((entry) => entry.trim() !== '');
  return line?.trim();
}

/** At most 100 characters (the card's limit on `description` and `title`). */
function clip(text: string): string {
  return text.length <= 100 ? text : `${text.slice(0, 99)}…`;
}
