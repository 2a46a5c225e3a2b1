/** Public API of @switchboard/client. Any new export added here becomes public API: use named exports, not wildcards. */
export type {
  CallToolOptions,
  ElicitationHandler,
  McpClient,
  McpClientOptions,
  RootsProvider,
  SamplingHandler,
  ServerRequestContext,
} from './mcp-client.js';
export { createMcpClient } from './mcp-client.js';
