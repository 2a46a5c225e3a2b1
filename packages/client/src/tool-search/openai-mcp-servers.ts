/**
 * The remote servers of a config as OpenAI Responses API `mcp` tools, deferred behind OpenAI's
 * hosted tool search (`defer_loading: true`): for users who let OpenAI call the MCP servers itself
 * rather than answering each call through Switchboard.
 *
 * What Switchboard still decides (why a config is not simply copied):
 * - `allowed_tools` is what the connection offers the model, when a tool source is given: tools
 *   that tool trust holds back, that `includeTools`/`excludeTools` hide or that the approval
 *   policy denies are not listed, so OpenAI cannot call them either. (OpenAI reads the definitions
 *   itself, so a definition changed after approval under the same name reaches the model: pinning
 *   guards only calls made through Switchboard.)
 * - `require_approval` asks for the tools whose approval policy says `ask`.
 * - Only servers OpenAI can reach: a stdio server, a disabled one or one on a private address is
 *   left out with the reason (serve a stdio server with `switchboard serve --http` and give that).
 * - A server's `headers` often carry its token: they are sent to OpenAI only when asked for.
 */

import type { RegisteredTool } from '@switchboard/core';
import type { ServerEntry } from '../config/server-entry.js';
import { type McpServers, normaliseServers } from '../connect-mcp.js';
import { type ToolSource, toolsOf } from '../framework-adapter/tool-source.js';
import { serverNamespaces, uniqueName } from './openai-namespace-tools.js';

/** An OpenAI Responses API `mcp` tool (the fields Switchboard writes; OpenAI's `Tool.Mcp`). */
export interface OpenAIMcpServerTool {
  type: 'mcp';
  /** The server's name made provider-safe (a suffix where two meet). */
  server_label: string;
  server_url: string;
  server_description?: string;
  /** Deferred: OpenAI's hosted tool search loads the server's tools when the model needs them. */
  defer_loading?: boolean;
  /** The tools the model may call (the connection's offered tools, when a source was given). */
  allowed_tools?: string[];
  /** Which calls OpenAI asks the person about; unset leaves OpenAI's default. */
  require_approval?:
    | 'always'
    | 'never'
    | { always?: { tool_names: string[] }; never?: { tool_names: string[] } };
  /** Sent to the server by OpenAI: only with `forwardHeaders`. */
  headers?: Record<string, string>;
}

/** A config entry that did not become an `mcp` tool, and why. */
export interface SkippedMcpServer {
  server: string;
  reason: string;
}

/** Options of {@link toOpenAIMcpServers}. */
export interface OpenAIMcpServersOptions {
  /**
   * What the connection offers the model (an `McpConnection` fits): sets each server's
   * `allowed_tools` and `require_approval`, and leaves out a server with nothing offered.
   * @default none: every tool of each server is allowed
   */
  tools?: ToolSource;
  /** Mark each server `defer_loading: true`. @default true */
  deferLoading?: boolean;
  /** Servers loaded up front despite `deferLoading`, by config name. @default [] */
  alwaysLoad?: readonly string[];
  /** Each server's description, by config name (what it is for, so the model knows what to search). */
  descriptions?: Readonly<Record<string, string>>;
  /**
   * Send the entries' `headers` to OpenAI (which passes them to the server): `true` for all, or the
   * header names to send. They usually hold the server's token, so nothing is sent by default.
   * @default false
   */
  forwardHeaders?: boolean | readonly string[];
  /** Keep servers on loopback or private addresses (OpenAI cannot reach them; for tests and tunnels). @default false */
  allowPrivateUrls?: boolean;
}

/** The `mcp` tools, and the entries left out. */
export interface OpenAIMcpServers {
  tools: OpenAIMcpServerTool[];
  skipped: SkippedMcpServer[];
}

/** Hosts OpenAI's servers cannot reach: loopback, private, link-local and unique-local ranges. */
const privateHost =
  /^(localhost|.*\.localhost|127\.\d+\.\d+\.\d+|10\.\d+\.\d+\.\d+|192\.168\.\d+\.\d+|172\.(1[6-9]|2\d|3[01])\.\d+\.\d+|169\.254\.\d+\.\d+|0\.0\.0\.0|\[::1?\]|\[f[cd][0-9a-f]*:.*\]|\[fe80:.*\])$/i;

/** Why an entry cannot be an `mcp` tool, or `undefined` when it can. */
function unreachableReason(entry: ServerEntry, allowPrivateUrls: boolean): string | undefined {
  if (entry.enabled === false) return 'disabled in the config (enabled: false)';
  const url = (entry as { url?: unknown }).url;
  if (typeof url !== 'string')
    return 'not a remote server: OpenAI calls MCP servers by URL; serve it with `switchboard serve --http` and give that URL';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `its url ${JSON.stringify(url)} is not a URL`;
  }
  if (!allowPrivateUrls && privateHost.test(parsed.hostname))
    return `${parsed.hostname} is a loopback or private address OpenAI cannot reach (allowPrivateUrls: true keeps it)`;
  return undefined;
}

function forwardedHeaders(
  entry: ServerEntry,
  forward: boolean | readonly string[],
): Record<string, string> | undefined {
  const headers = (entry as { headers?: Record<string, string> }).headers;
  if (forward === false || headers === undefined) return undefined;
  const names = forward === true ? undefined : new Set(forward.map((name) => name.toLowerCase()));
  const kept = Object.entries(headers).filter(
    ([name]) => names === undefined || names.has(name.toLowerCase()),
  );
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}

/** `require_approval` from the offered tools' approval states (`ask` asks, the rest do not). */
function approvalOf(tools: readonly RegisteredTool[]): NonNullable<OpenAIMcpServerTool['require_approval']> {
  const ask = tools.filter((tool) => tool.approval?.().decision === 'ask').map((tool) => tool.originalName);
  const rest = tools.filter((tool) => !ask.includes(tool.originalName)).map((tool) => tool.originalName);
  if (ask.length === 0) return 'never';
  if (rest.length === 0) return 'always';
  return { always: { tool_names: ask }, never: { tool_names: rest } };
}

/**
 * One `mcp` tool per remote server of `servers` (a config as `connectMcp` takes it), deferred, in
 * the config's order; the entries OpenAI cannot use are in `skipped` with the reason.
 */
export function toOpenAIMcpServers(
  servers: McpServers,
  options: OpenAIMcpServersOptions = {},
): OpenAIMcpServers {
  const entries = normaliseServers(servers);
  const offered = options.tools === undefined ? undefined : toolsOf(options.tools);
  const deferLoading = options.deferLoading ?? true;
  const alwaysLoad = new Set(options.alwaysLoad ?? []);
  // Labels and default descriptions as the namespaces have them, so both shapes name a server alike.
  const names = serverNamespaces(offered ?? [], options.descriptions);
  const tools: OpenAIMcpServerTool[] = [];
  const skipped: SkippedMcpServer[] = [];
  const usedLabels = new Set<string>();
  for (const [server, entry] of Object.entries(entries)) {
    const reason = unreachableReason(entry, options.allowPrivateUrls ?? false);
    if (reason !== undefined) {
      skipped.push({ server, reason });
      continue;
    }
    const own = offered?.filter((tool) => tool.server === server);
    if (own !== undefined && own.length === 0) {
      skipped.push({
        server,
        reason: 'the connection offers none of its tools (not connected, hidden or held back)',
      });
      continue;
    }
    // With a tool source every kept server has its namespace's name; without one, made here alike.
    const label = names.get(server)?.name ?? uniqueName(server, usedLabels);
    const tool: OpenAIMcpServerTool = {
      type: 'mcp',
      server_label: label,
      server_url: (entry as { url: string }).url,
    };
    const description = options.descriptions?.[server] ?? names.get(server)?.description;
    if (description !== undefined) tool.server_description = description;
    if (deferLoading && !alwaysLoad.has(server)) tool.defer_loading = true;
    if (own !== undefined) {
      tool.allowed_tools = own.map((registered) => registered.originalName);
      tool.require_approval = approvalOf(own);
    }
    const headers = forwardedHeaders(entry, options.forwardHeaders ?? false);
    if (headers !== undefined) tool.headers = headers;
    tools.push(tool);
  }
  return { tools, skipped };
}
