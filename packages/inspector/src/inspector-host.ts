/**
 * What the inspector asks of the program that runs it. The inspector owns the page, its API and
 * everything it shows; the host owns how servers are found and reached: the configured servers,
 * how they connect (stores, sign-ins, tracing), how a remote one signs in, where earlier runs'
 * usage is kept and which embedder ranks tools. `switchboard ui` is one host (the cli's config
 * discovery, registry store, OAuth and embedder); a test or another program gives its own. Each
 * part but the servers has a default that needs nothing but `@switchboard/client`.
 */
import type { ConnectMcpOptions, McpConnection, ServerConfig } from '@switchboard/client';
import type { Logger, ToolUsage } from '@switchboard/core';
import type { Embedder } from '@switchboard/tool-selection';

/** A sign-in the page started: which server, and where to send the person. */
export interface InspectorSignInRequest {
  /** The server's name in the session. */
  name: string;
  /** Its entry (a remote server: `url` is set). */
  entry: ServerConfig;
  /** Tells the page (and the person) the authorization URL to open. */
  openUrl(url: URL): void;
}

/** The program the inspector runs in: its servers and how to reach them. */
export interface InspectorHost {
  /** The configured servers the page starts with (a loaded config's `mcpServers`). */
  readonly servers: Readonly<Record<string, ServerConfig>>;
  /**
   * Connects servers. `options` holds the inspector's own handlers (the protocol log, approval,
   * elicitation, sampling, tool changes): pass them on, adding the host's (a store, sign-ins).
   * @default `connectMcp(servers, { onError: 'skip', ...options })`
   */
  connect?(servers: Record<string, ServerConfig>, options: ConnectMcpOptions): Promise<McpConnection>;
  /**
   * Runs the OAuth sign-in of a remote server; resolves once the tokens are stored where `connect`
   * finds them. @default none: the page's sign-in answers `UI_SIGN_IN_UNAVAILABLE`
   */
  signIn?(request: InspectorSignInRequest): Promise<void>;
  /** The tool usage of earlier runs (a registry store), shown beside this run's calls. @default none */
  storedUsage?(): Promise<ToolUsage[]>;
  /**
   * The embedder the selection playground ranks with, made at its first query.
   * @default tool selection's shipped offline model (`createOfflineEmbedder`: never a download)
   */
  embedder?(logger: Logger): Embedder | Promise<Embedder>;
  /** Where the playground resolves a relative dataset folder. @default process.cwd() */
  readonly cwd?: string;
  /** Where the session logs (connections, failures of the page's own work). @default silentLogger */
  readonly logger?: Logger;
}
