/**
 * `serve`: runs a Switchboard MCP server over stdio or Streamable HTTP, both eras on each. Beside
 * the package entry, above server/, http/ and stdio/: it starts the transports, and http/ names the
 * server it serves, so in server/ it tied server/ and http/ into one loop.
 */
import { ServerError, ServerErrorCode } from './errors/server-error.js';
import { type HttpServerHandle, type HttpTransportOptions, serveHttp } from './http/http-server.js';
import type { McpServer } from './server/mcp-server.js';
import {
  createStdioServerTransport,
  type StdioServerTransportOptions,
} from './stdio/stdio-server-transport.js';

/** Options of {@link serve}. */
export interface ServeOptions {
  /** `'stdio'` (only protocol on stdout; logs go to the logger, i.e. stderr) or HTTP options. */
  transport: 'stdio' | ({ type: 'stdio' } & StdioServerTransportOptions) | HttpTransportOptions;
}

/** A running server. `url` and `port` are set for HTTP. */
export interface ServeHandle {
  url?: string;
  port?: number;
  /** HTTP: the replica id, when set. */
  replicaId?: string;
  /** HTTP: stops accepting and lets calls in flight finish, without closing sessions (see `HttpServerHandle.drain`). */
  drain?(): Promise<void>;
  /** Stops serving (HTTP: drains calls in flight first). */
  close(): Promise<void>;
}

/** Serves `server` over the chosen transport until `close()`. */
export async function serve(server: McpServer, options: ServeOptions): Promise<ServeHandle> {
  const transport = options?.transport;
  if (transport === 'stdio' || (typeof transport === 'object' && transport?.type === 'stdio')) {
    const connection = await server.connect(
      createStdioServerTransport(typeof transport === 'object' ? transport : {}),
    );
    server.logger.info(`MCP server "${server.name}" serving on stdio`);
    return { close: () => connection.close() };
  }
  if (typeof transport === 'object' && transport?.type === 'http') {
    const handle: HttpServerHandle = await serveHttp(server, transport);
    return handle;
  }
  throw new ServerError({
    code: ServerErrorCode.ConfigInvalid,
    message: `serve: unknown transport ${JSON.stringify(transport)}; use 'stdio' or { type: 'http', port }.`,
  });
}
