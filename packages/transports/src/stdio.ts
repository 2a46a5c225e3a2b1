/**
 * Node-only entry of @switchboard/transports: the stdio transport, which spawns server processes.
 * Any new export added here becomes public API. Use named exports, not wildcards.
 */

export type { StdioExitInfo, StdioTransport, StdioTransportOptions } from './stdio-transport.js';
export { createStdioTransport } from './stdio-transport.js';
