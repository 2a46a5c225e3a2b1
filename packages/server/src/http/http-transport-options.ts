/** Options and handle of the Streamable HTTP transport of `serve`. */
import type { OAuthResourceOptions } from './protected-resource.js';

/** Bearer-token authentication. */
export interface BearerAuthOptions {
  type: 'bearer';
  /** The token clients send as `Authorization: Bearer <token>`. */
  token: string;
}

/** Options of the HTTP transport of `serve`. */
export interface HttpTransportOptions {
  type: 'http';
  /** Port; 0 picks a free one. @default 3000 */
  port?: number;
  /** Interface to bind. @default '127.0.0.1' */
  host?: string;
  /** Path of the MCP endpoint. @default '/mcp' */
  path?: string;
  /**
   * 2025-era sessions (`initialize` → `Mcp-Session-Id`, GET SSE stream, DELETE, resumability,
   * server→client requests). 2026-07-28 requests are served statelessly either way, and without
   * sessions 2025 requests are too. @default false
   */
  session?: boolean;
  /** Answer POSTs with plain JSON instead of an SSE stream (notifications of a call are then dropped). @default false */
  json?: boolean;
  /** Authentication of `/mcp` and `/v1/tool-execute`: a static bearer token, or OAuth (MCP authorization spec). @default none */
  auth?: BearerAuthOptions | OAuthResourceOptions;
  /** Allow binding a non-loopback host without auth (logs a loud warning). @default false */
  allowUnauthenticated?: boolean;
  /** Extra accepted `Host` names (DNS-rebinding protection). @default loopback names when bound to loopback */
  allowedHosts?: string[];
  /** Extra accepted `Origin`s (e.g. `https://app.example.com`). @default loopback origins only */
  allowedOrigins?: string[];
  /** Largest accepted request body in bytes (413 beyond). @default 4 MiB */
  maxBodyBytes?: number;
  /** Serve `POST /v1/tool-execute` (`{tool, input}` → result) for callers that do not speak MCP. @default false */
  restEndpoint?: boolean;
  /** How long `close()` waits for calls in flight. @default 10000 */
  drainTimeoutMs?: number;
  /** SSE reconnection delay advertised to 2025 session clients (ms). @default 1000 */
  retryIntervalMs?: number;
  /** Session mode: sessions without a request for this long are closed (0 keeps them). @default 1800000 (30 min) */
  sessionIdleTimeoutMs?: number;
}

/** What a running HTTP server gives back. */
export interface HttpServerHandle {
  /** URL of the MCP endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  url: string;
  port: number;
  host: string;
  /** Stops accepting, drains calls in flight, closes sessions. */
  close(): Promise<void>;
}
