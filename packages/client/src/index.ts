/** Public API of @switchboard/client. Any new export added here becomes public API: use named exports, not wildcards. */

export type { CircuitState } from './circuit-breaker.js';
export type { ConnectMcpOptions, McpConnection, McpServers } from './connect-mcp.js';
export { connectMcp } from './connect-mcp.js';
export type { ApprovalSetting } from './core-tool-steps.js';
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
export type { ApprovalPrompt, ApproveCallback, McpToolExecuteOptions } from './mcp-tool.js';
export type { CallStats, McpMetrics } from './metrics-recorder.js';
export type { ServerState, ServerStatus, SupervisionOptions } from './server-connection.js';
export type { ServerEntry, ServerTimeouts, ServerTransportType } from './server-entry.js';
