/** Public API of @switchboard/server. Any new export added here becomes public API: use named exports, not wildcards. */
export type { DefinedTool, ToolContext, ToolDefinition, ToolReturnValue, ZodSchema } from './define-tool.js';
export { defineTool, isZodSchema } from './define-tool.js';
export type { Gateway, GatewayClients, GatewayOptions, GatewayToolSelector } from './gateway.js';
export { createGateway } from './gateway.js';
export type { GatewayUpstreamClient } from './gateway-catalog.js';
export type { BearerAuthOptions, HttpServerHandle, HttpTransportOptions } from './http-server.js';
export { isLoopbackHost } from './http-server.js';
export type { CheckedMessage, JsonRpcErrorResponse } from './json-rpc-message.js';
export { checkJsonRpcMessage, JsonRpcErrorCode, parseJsonRpcText } from './json-rpc-message.js';
export type {
  CallToolOptions,
  McpServer,
  McpServerOptions,
  McpSession,
  McpSessionOptions,
} from './mcp-server.js';
export { createMcpServer, localToolServer, toCallToolResult, toErrorResult } from './mcp-server.js';
export { createMemoryEventStore } from './memory-event-store.js';
export type { PromptDefinition } from './prompt-definition.js';
export type {
  IntrospectionVerifierOptions,
  JwtVerifierOptions,
  OAuthResourceOptions,
  TokenVerifier,
  VerifiedToken,
} from './protected-resource.js';
export { createIntrospectionVerifier, createJwtVerifier } from './protected-resource.js';
export type {
  ResourceDefinition,
  ResourceReadValue,
  ResourceTemplateDefinition,
} from './resource-definition.js';
export type { ServeHandle, ServeOptions } from './serve.js';
export { serve } from './serve.js';
export type { AgentFunction, ServeAgentOptions } from './serve-agent.js';
export { serveAgent } from './serve-agent.js';
export type { StdioServerTransportOptions } from './stdio-server-transport.js';
export { createStdioServerTransport } from './stdio-server-transport.js';
