/** Public API of @switchboard/client. Any new export added here becomes public API: use named exports, not wildcards. */

// Provider converters of @switchboard/core (tool definitions and tool results in each provider's
// own shape), so that agents calling a provider SDK directly need only the client; and core's
// `ApprovalModeName`, the modes a config's `approval` names.
// The `telemetry` option's types (core's: the server and the gateway take the same option).
// The provider tool search shapes (core's), for users who install only the client.
export type {
  AnthropicTool,
  AnthropicToolReference,
  AnthropicToolResult,
  AnthropicToolResultBlock,
  AnthropicToolSearchResult,
  ApprovalModeName,
  ConversionResult,
  GeminiFunctionDeclaration,
  GeminiFunctionResponse,
  GeminiInlineDataPart,
  LossyChange,
  MeterProviderLike,
  OpenAIFunctionTool,
  OpenAINamespaceFunction,
  OpenAINamespaceTool,
  OpenAIToolOutput,
  OpenAIToolOutputPart,
  OpenAIToolSearchCall,
  OpenAIToolSearchOutput,
  OpenAIToolSearchTool,
  TelemetryOptions,
  TelemetrySetting,
  ToAnthropicToolReferencesOptions,
  ToAnthropicToolResultOptions,
  ToGeminiFunctionResponseOptions,
  ToOpenAIToolOptions,
  ToOpenAIToolOutputOptions,
  TracerProviderLike,
} from '@switchboard/core';
export {
  noToolFoundText,
  perStepSearchGuidance,
  toAnthropicTool,
  toAnthropicToolReferences,
  toAnthropicToolResult,
  toGeminiFunction,
  toGeminiFunctionResponse,
  toOpenAITool,
  toOpenAIToolOutput,
  toOpenAIToolSearchOutput,
  toolSearchDefaults,
  toolSearchQueryDescription,
} from '@switchboard/core';
// OAuth building blocks of @switchboard/transports, so that `npm i @switchboard/client` is enough;
// and its `TransportEntry` (which `ServerEntry` extends) and `TransportType`.
export type {
  AssertionContext,
  AssertionSource,
  DpopOptions,
  IdentityProviderOptions,
  OAuthGrantType,
  OAuthProvider,
  OAuthProviderOptions,
  StoredAuthorization,
  TokenStore,
  TransportEntry,
  TransportType,
} from '@switchboard/transports';
export {
  AuthorizationErrorCode,
  createFileTokenStore,
  createMemoryTokenStore,
  createOAuthProvider,
  defaultTokenDirectory,
  parseBearerChallenge,
  runAuthorization,
} from '@switchboard/transports';
export type {
  AppRequest,
  AppResource,
  AppToolCall,
  AppView,
  OpenAppViewOptions,
} from './app-host.js';
export { openAppView, resolveAppToolCall } from './app-host.js';
export type { AppUriOwnership } from './app-resource-uris.js';
export {
  followAppUriOwners,
  prefixServerUri,
  serverOfPrefixedUri,
  serverUriSeparator,
  withExposedAppUri,
} from './app-resource-uris.js';
export type { ApprovalSetting } from './approval-setting.js';
export { toApprovalPolicy } from './approval-setting.js';
export type { CircuitState } from './circuit-breaker.js';
export type { ClientErrorOptions, ClientFailureCode } from './client-error.js';
export { ClientError, ClientErrorCode, TransportErrorCode } from './client-error.js';
export type {
  ApprovalConfig,
  ApprovalMode,
  ConfigSource,
  ExpansionLocation,
  ExportEntryContext,
  ExportedEntry,
  HostEntry,
  HostFormat,
  HostId,
  HostLocation,
  HostLocationContext,
  HostSyntax,
  ImportCandidate,
  ImportConfigOptions,
  ImportedConfig,
  ImportFormat,
  InputResolver,
  LoadConfigOptions,
  MappedEntry,
  ServerConfig,
  SwitchboardConfig,
  VariableSource,
  VsCodeInput,
} from './config/index.js';
export {
  claudeDesktopConfigPath,
  clineSettingsPath,
  configEnvironmentVariable,
  configErrorCodes,
  defaultImportCandidates,
  expandVariables,
  findProjectDirectory,
  hostFormats,
  hostIds,
  importConfig,
  importFormats,
  isHostId,
  loadConfig,
  normalizeTransportType,
} from './config/index.js';
export type {
  DpopAlgorithm,
  ServerAuthConfig,
  ServerAuthIdentityProviderConfig,
} from './config/server-auth-config.js';
export type { ServerEntry, ServerTimeouts, ServerTransportType } from './config/server-entry.js';
export type { ConnectionTrustSetting, ConnectMcpOptions, McpConnection, McpServers } from './connect-mcp.js';
export { connectMcp } from './connect-mcp.js';
export type { ConnectionTrust, ToolTrustDiff } from './connection-trust.js';
export { createMcpClient } from './create-mcp-client.js';
export type {
  CatalogSource,
  CrossServerCatalog,
  CrossServerCatalogOptions,
  ExposedItem,
} from './cross-server-catalog.js';
export {
  createCrossServerCatalog,
  exposePromptNames,
  exposeServerUris,
  serverMetaKey,
  withServerMeta,
} from './cross-server-catalog.js';
export type {
  EventDeliveryMode,
  EventOccurrence,
  EventPollOptions,
  EventPollResult,
  EventStream,
  EventStreamOptions,
  EventsClient,
  EventType,
  WebhookDelivery,
  WebhookSubscribeOptions,
  WebhookSubscription,
} from './events-client.js';
export type { ToolSource, ToolSourceOptions } from './framework-adapter/tool-source.js';
export type { LoadedMcpTools, LoadMcpToolsOptions } from './load-mcp-tools.js';
export { loadMcpTools } from './load-mcp-tools.js';
export type {
  ManagementTool,
  ManagementToolSelector,
  ManagementToolsOptions,
  NewServerPolicy,
} from './management-tools.js';
export { createManagementTools } from './management-tools.js';
export type {
  CallToolOptions,
  McpClient,
  McpClientOptions,
  McpRequestOptions,
  ToolStart,
} from './mcp-client.js';
export type { ApprovalPrompt, ApproveCallback, McpToolExecuteOptions } from './mcp-tool.js';
export type { CallStats, McpMetrics } from './metrics-recorder.js';
export type { ProtocolMessageEvent, ProtocolMessageListener } from './protocol-message-tap.js';
export type { ProtocolEra } from './protocol-version.js';
export { supportedProtocolVersions } from './protocol-version.js';
export type {
  AnthropicToolsOptions,
  GeminiTool,
  OpenAIResponsesFunctionTool,
  OpenAIToolsOptions,
  ProviderTools,
  ProviderToolsOptions,
} from './provider-tools.js';
export { toAnthropicTools, toGeminiTools, toOpenAITools } from './provider-tools.js';
export type { Redactor } from './redactor.js';
export { createRedactor } from './redactor.js';
export type { CreatedTask } from './result-decoding.js';
export type { ClientAuthOptions } from './server-auth.js';
export { createServerAuthProvider } from './server-auth.js';
export type {
  FetchServerCardOptions,
  ServerCard,
  ServerCardLookup,
  ServerCardRemote,
  ServerCardSummary,
} from './server-card.js';
export {
  cardEndpoint,
  fetchServerCard,
  readServerCardSummary,
  serverCardMediaType,
  summarizeServerCard,
} from './server-card.js';
export type { ServerState, ServerStatus, SupervisionOptions } from './server-connection.js';
export type {
  CallServerRequestHandlers,
  ElicitationHandler,
  ListRootsHandler,
  RootsProvider,
  SamplingHandler,
  ServerRequestContext,
} from './server-request-answers.js';
export { serverSecrets } from './server-secrets.js';
export { digestSessionId } from './telemetry/session-digest.js';
export type { AfterToolCallHook, ToolCallEvent } from './tool-call-hooks.js';
export type {
  AnthropicToolSearch,
  AnthropicToolSearchOptions,
} from './tool-search/anthropic-tool-search.js';
export { createAnthropicToolSearch } from './tool-search/anthropic-tool-search.js';
export type {
  OpenAIMcpServers,
  OpenAIMcpServersOptions,
  OpenAIMcpServerTool,
  SkippedMcpServer,
} from './tool-search/openai-mcp-servers.js';
export { toOpenAIMcpServers } from './tool-search/openai-mcp-servers.js';
export type { OpenAINamespacesOptions } from './tool-search/openai-namespace-tools.js';
export { toOpenAINamespaces } from './tool-search/openai-namespace-tools.js';
export type { OpenAIToolSearch, OpenAIToolSearchOptions } from './tool-search/openai-tool-search.js';
export { createOpenAIToolSearch } from './tool-search/openai-tool-search.js';
export type { ToolSearchOptions } from './tool-search/run-tool-search.js';
export type { ToolSearcher, ToolSearcherSelectOptions } from './tool-search/tool-searcher.js';
export type { TaskState, TaskStatus, TaskWaitOptions, ToolTask } from './tool-task.js';
export type { DefinitionDiff, DefinitionDiffLine } from './trust-diff.js';
export { definitionLines, diffDefinitions } from './trust-diff.js';
export { quarantinedError } from './trust-gate.js';
export type { WebhookReceiver, WebhookReceiverOptions } from './webhook-receiver.js';
export { createWebhookReceiver } from './webhook-receiver.js';
export type { VerifiedDelivery, WebhookVerifyOptions } from './webhook-verification.js';
export { verifyWebhookDelivery } from './webhook-verification.js';
