/** Public API of @switchboard/server. Any new export added here becomes public API: use named exports, not wildcards. */

// The `telemetry` option's types are core's: one shape for connectMcp, servers and gateways.
export type {
  MeterProviderLike,
  TelemetryOptions,
  TelemetrySetting,
  TracerProviderLike,
} from '@switchboard/core';
export type { AgentFunction, ServeAgentOptions } from './agent/serve-agent.js';
export { serveAgent } from './agent/serve-agent.js';
export type {
  CompletionArgument,
  PromptProvider,
  ProviderContext,
  ResourceProvider,
} from './catalog/content-provider.js';
export type { PromptContext, PromptDefinition } from './catalog/prompt-definition.js';
// For servers built from another registry's tools (a gateway, `serveAgent`): the same public names.
export { republishTool } from './catalog/republish-tool.js';
export type {
  ResourceDefinition,
  ResourceReadValue,
  ResourceTemplateDefinition,
} from './catalog/resource-definition.js';
export type {
  CallCounters,
  ClusterEvents,
  ClusterLogEntry,
  ClusterMember,
  ClusterState,
  ForwardedRequestContext,
  ForwardedRequestHandler,
  ForwardedResponse,
  ForwardRequestOptions,
  ReadLogOptions,
  RequestRelay,
  ResponseForwarding,
  SessionRevocations,
  StreamLogs,
  SubscriptionChange,
  SubscriptionSharing,
} from './cluster/cluster-state.js';
export { deriveRequestStateKey } from './cluster/derive-request-state-key.js';
export { loadSessionKeys, parseSessionKeys } from './cluster/load-session-keys.js';
export type { MemoryClusterStateOptions } from './cluster/memory-cluster-state.js';
export { createMemoryClusterState } from './cluster/memory-cluster-state.js';
export { anonymousPrincipal, principalOf } from './cluster/principal.js';
export { isReplicaId } from './cluster/replica-id.js';
export type { SealedSessionState, SessionSealer, SessionSealerOptions } from './cluster/session-sealer.js';
export { createSessionSealer } from './cluster/session-sealer.js';
export type { TaskOwnerEntry, TaskOwnerIndex } from './cluster/task-owner-index.js';
export { createMemoryTaskOwnerIndex } from './cluster/task-owner-index.js';
export type {
  StoredWebhookSubscription,
  WebhookSubscriptionStore,
} from './cluster/webhook-subscription-store.js';
export {
  createMemoryWebhookSubscriptionStore,
  webhookStoreOf,
} from './cluster/webhook-subscription-store.js';
export type { NginxAddress, NginxConfigOptions } from './deploy/render-nginx-config.js';
export { formatNginxAddress, renderNginxConfig } from './deploy/render-nginx-config.js';
export type { RequestDispatcher } from './dispatch/request-dispatcher.js';
export type { JsonRpcErrorCodeValue } from './errors/json-rpc-error-code.js';
export { JsonRpcErrorCode } from './errors/json-rpc-error-code.js';
export type { ServerErrorCodeValue, ServerErrorOptions } from './errors/server-error.js';
export { ServerError, ServerErrorCode } from './errors/server-error.js';
// For code that answers on a server's behalf (a gateway forwarding a failure upstream).
export type { WireError } from './errors/to-wire-error.js';
export { toWireError } from './errors/to-wire-error.js';
export type {
  EmitOptions,
  EventHub,
  EventHubOptions,
  EventReadResult,
  HubWebhooks,
} from './events/event-hub.js';
export { createEventHub } from './events/event-hub.js';
export type {
  EventPollAnswer,
  EventRequest,
  EventSource,
  EventStreamSink,
  WebhookPolicy,
  WebhookSubscribeRequest,
} from './events/event-source.js';
export type {
  EventDeliveryMode,
  EventOccurrence,
  EventTypeDefinition,
  ListedEventType,
} from './events/event-type.js';
export { eventsExtensionId } from './events/event-type.js';
export type { EventsMethodsOptions } from './events/events-methods.js';
export type { PostOutcome, VerificationFailure, WebhookTarget } from './events/webhook-delivery.js';
// For sources that deliver webhooks of their own (a gateway): the same signing, handshake and ids.
export { isWebhookSecret, postSigned, verifyEndpoint } from './events/webhook-delivery.js';
export type { SubscribeRefusal, WebhookOptions } from './events/webhook-subscriptions.js';
export {
  defaultWebhookRetryDelaysMs,
  noWebhookSubscriptionError,
  subscribeRefusalError,
  webhookSubscriptionId,
} from './events/webhook-subscriptions.js';
export type {
  BearerAuthOptions,
  BearerTokenPrincipal,
  HttpServerHandle,
  HttpTransportOptions,
  RateLimitOptions,
  ReadinessCheck,
} from './http/http-transport-options.js';
export type { EventStore, MemoryEventStore, StoredEvent } from './http/memory-event-store.js';
export { createMemoryEventStore } from './http/memory-event-store.js';
export type {
  IntrospectionVerifierOptions,
  JwtVerifierOptions,
  OAuthResourceOptions,
  TokenVerifier,
  VerifiedToken,
} from './http/protected-resource.js';
export { createIntrospectionVerifier, createJwtVerifier } from './http/protected-resource.js';
export type { ServerCard, ServerCardOptions, ServerCardRemote } from './http/server-card.js';
export {
  mcpCatalogPath,
  serverCardMediaType,
  serverCardSchema,
  wellKnownServerCardPath,
} from './http/server-card.js';
export type { CacheHint } from './protocol/encode-result.js';
export type { ProtocolEra } from './protocol/protocol-versions.js';
export { legacyProtocolVersions, modernProtocolVersions } from './protocol/protocol-versions.js';
export type { RequestEnvelope } from './protocol/request-envelope.js';
export type { DispatchAnswer } from './request/dispatch-answer.js';
export type { InboundRequest } from './request/inbound-request.js';
export type { RequestAuth } from './request/request-auth.js';
export type { RequestChannel } from './request/request-channel.js';
export type { ServeHandle, ServeOptions } from './serve.js';
export { serve } from './serve.js';
export type {
  CallToolOptions,
  CreateSessionOptions,
  LocalCallToolOptions,
  McpConnectionHandle,
  McpServer,
  McpServerOptions,
} from './server/mcp-server.js';
export { createMcpServer } from './server/mcp-server.js';
export type { LegacySession, LegacySessionOptions, SessionOutlet } from './session/legacy-session.js';
export type { SkillProvider } from './skills/skill-provider.js';
export type { SkillsOptions } from './skills/skills-provider.js';
export type { StdioServerTransportOptions } from './stdio/stdio-server-transport.js';
export { createStdioServerTransport } from './stdio/stdio-server-transport.js';
export type { RelayedTaskMethod, TaskRelay } from './tasks/task-relay.js';
export type { DetailedTask, TaskStatus } from './tasks/task-store.js';
export { tasksExtensionId } from './tasks/task-store.js';
export type { ApprovalPrompt } from './tools/approval-prompt.js';
export { approvalPrompts } from './tools/approval-prompt.js';
export type {
  DefinedTool,
  ToolContext,
  ToolDefinition,
  ToolReturnValue,
  ToolTaskOptions,
  ZodSchema,
} from './tools/define-tool.js';
export { defineTool } from './tools/define-tool.js';
export type { RequestStateOptions } from './tools/request-state-seal.js';
export type { AppResourceSource, DefinedToolApp, ToolAppDefinition } from './tools/tool-app-definition.js';
