/** `serve`: runs a Switchboard MCP server over stdio or Streamable HTTP. */
import { SwitchboardError } from '@switchboard/core';
import { type HttpServerHandle, type HttpTransportOptions, serveHttp } from './http-server.js';
import type { McpServer } from './mcp-server.js';
import { createStdioServerTransport, type StdioServerTransportOptions } from './stdio-server-transport.js';

/** Options of {@link serve}. */
export interface ServeOptions {
  /** `'stdio'` (only protocol on stdout; logs go to the logger, i.e. stderr) or HTTP options. */
  transport: 'stdio' | ({ type: 'stdio' } & StdioServerTransportOptions) | HttpTransportOptions;
}

/** A running server. `url` and `port` are set for HTTP. */
export interface ServeHandle {
  url?: string;
  port?: number;
  /** Stops serving (HTTP: drains calls in flight first). */
  close(): Promise<void>;
}

/** Serves `server` over the chosen transport until `close()`. */
export async function serve(server: McpServer, options: ServeOptions): Promise<ServeHandle> {
  const transport = options?.transport;
  if (transport === 'stdio' || (typeof transport === 'object' && transport?.type === 'stdio')) {
    const stdio = createStdioServerTransport(typeof transport === 'object' ? transport : {});
    const session = await server.connect(stdio);
    server.logger.info(`MCP server "${server.name}" serving on stdio`);
    return { close: () => session.close() };
  }
  if (typeof transport === 'object' && transport?.type === 'http') {
    const handle: HttpServerHandle = await serveHttp(server, transport, server.health);
    return handle;
  }
  throw new SwitchboardError({
    code: 'CONFIG_INVALID',
    message: `serve: unknown transport ${JSON.stringify(transport)}; use 'stdio' or { type: 'http', port }.`,
  });
}
