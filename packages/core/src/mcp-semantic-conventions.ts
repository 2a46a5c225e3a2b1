/**
 * The names the OpenTelemetry semantic conventions for MCP give to spans, attributes and metrics
 * (https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/, status Development), in one table the
 * client, the gateway and the server all read, so a trace across them uses one vocabulary. Plain
 * strings: core imports no OpenTelemetry package (the client and the server load
 * `@opentelemetry/api` themselves, as an optional peer).
 */

/** Attribute names of MCP spans and metrics. */
export const McpAttribute = {
  /** The request's method (`tools/call`, `resources/read`, …). Required. */
  methodName: 'mcp.method.name',
  /** The negotiated protocol revision (`2026-07-28`, `2025-11-25`, …). */
  protocolVersion: 'mcp.protocol.version',
  /** The 2025 session the request belongs to (Switchboard records a digest of it, never the id itself). */
  sessionId: 'mcp.session.id',
  /** The resource URI of `resources/read` and the subscription methods (spans only: high cardinality). */
  resourceUri: 'mcp.resource.uri',
  /** The tool of a `tools/call`. */
  toolName: 'gen_ai.tool.name',
  /** The prompt of a `prompts/get`. */
  promptName: 'gen_ai.prompt.name',
  /** `execute_tool` on a tool call, absent otherwise. */
  operationName: 'gen_ai.operation.name',
  /** The JSON-RPC id of the request, as a string (spans only). */
  requestId: 'jsonrpc.request.id',
  /** The JSON-RPC error code of a failed request, as a string. */
  responseStatusCode: 'rpc.response.status_code',
  /** What the operation failed with: the JSON-RPC code, `tool_error`, `timeout`, … Present if and only if it failed. */
  errorType: 'error.type',
  /** `pipe` for stdio, `tcp` for HTTP. */
  networkTransport: 'network.transport',
  /** The host of an HTTP server, as the client reached it. */
  serverAddress: 'server.address',
  /** The port of an HTTP server, as the client reached it. */
  serverPort: 'server.port',
} as const;

/** Metric names (histograms, unit seconds). */
export const McpMetric = {
  /** A request as the client saw it: sent → answered. */
  clientOperationDuration: 'mcp.client.operation.duration',
  /** A request as the server saw it: received → answered. */
  serverOperationDuration: 'mcp.server.operation.duration',
} as const;

/** The bucket boundaries (seconds) the conventions advise for the operation-duration histograms. */
export const mcpDurationBuckets: readonly number[] = Object.freeze([
  0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300,
]);

/** `gen_ai.operation.name` of a tool call. */
export const executeToolOperation = 'execute_tool';

/** `error.type` of a `CallToolResult` with `isError: true` (the call itself succeeded). */
export const toolErrorType = 'tool_error';

/** `error.type` of a request that ran out of time. */
export const timeoutErrorType = 'timeout';

/** `error.type` when nothing more specific is known. */
export const otherErrorType = '_OTHER';

/** `network.transport` of a connection: `pipe` for stdio, `tcp` for HTTP, SSE and WebSocket. */
export function networkTransportOf(transport: 'stdio' | 'http' | 'sse' | 'ws'): 'pipe' | 'tcp' {
  return transport === 'stdio' ? 'pipe' : 'tcp';
}

/** What the conventions record of one request, from its method and params alone. */
export interface McpRequestDescription {
  /**
   * The low-cardinality attributes, for spans and measurements alike: `mcp.method.name`, and
   * `gen_ai.tool.name` + `gen_ai.operation.name` of a tool call or `gen_ai.prompt.name` of a prompt.
   */
  attributes: Record<string, string>;
  /** The span name's target: the tool or the prompt; undefined for every other method. */
  target: string | undefined;
  /** `mcp.resource.uri` of a request that names a resource (spans only: one value per resource). */
  resourceUri: string | undefined;
}

/**
 * The attributes, span-name target and resource URI of a request, per the conventions: read by
 * the client for what it sends and by the server for what it receives, so both sides of a hop
 * describe a request alike. `params` is the request's params as on the wire (anything: a
 * malformed request is described by its method alone).
 */
export function describeMcpRequest(method: string, params: unknown): McpRequestDescription {
  const attributes: Record<string, string> = { [McpAttribute.methodName]: method };
  const fields = typeof params === 'object' && params !== null ? (params as Record<string, unknown>) : {};
  const name = fields.name;
  let target: string | undefined;
  if (method === 'tools/call' && typeof name === 'string') {
    target = name;
    attributes[McpAttribute.toolName] = name;
    attributes[McpAttribute.operationName] = executeToolOperation;
  } else if (method === 'prompts/get' && typeof name === 'string') {
    target = name;
    attributes[McpAttribute.promptName] = name;
  }
  // resources/read, resources/subscribe and resources/unsubscribe carry the URI they act on.
  const uri = fields.uri;
  const resourceUri = typeof uri === 'string' && method.startsWith('resources/') ? uri : undefined;
  return { attributes, target, resourceUri };
}

/**
 * The span name the conventions ask for: `{method} {target}`, the target being the tool or the
 * prompt when there is one (never a resource URI: too many distinct names), else the method alone.
 */
export function mcpSpanName(method: string, target?: string): string {
  return target === undefined ? method : `${method} ${target}`;
}
