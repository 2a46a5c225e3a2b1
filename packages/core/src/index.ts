/**
 * Public API of @switchboard/core.
 * Any new export added here becomes public API. Use named exports, not wildcards.
 */

export type {
  ApprovalDecision,
  ApprovalFunction,
  ApprovalMode,
  ApprovalModeName,
  ApprovalPolicy,
  ApprovalPolicyOptions,
  ApprovalRequest,
  ApprovalResult,
  ApprovalRules,
} from './approval-policy.js';
export { createApprovalPolicy } from './approval-policy.js';
export type {
  ClassifiableTool,
  ClassifyToolKindOptions,
  ToolKind,
  ToolKindKeywords,
} from './classify-tool-kind.js';
export { classifyToolKind, toolKindKeywords } from './classify-tool-kind.js';
export { discoverToolsDefaults } from './discover-tools-defaults.js';
export type { EmbeddingStore } from './embedding-store.js';
export { createMemoryEmbeddingStore } from './embedding-store.js';
export { sameJsonValue } from './json-equal.js';
export type {
  MeterProviderLike,
  OpenTelemetryApiLike,
  TracerProviderLike,
} from './load-opentelemetry.js';
export { loadedOpenTelemetry, loadOpenTelemetry } from './load-opentelemetry.js';
export type { ConsoleLoggerOptions, Logger, LogMethod } from './logger.js';
export { createConsoleLogger, silentLogger } from './logger.js';
export type { McpNameField } from './mcp-name-header.js';
export { mcpNameFieldOf, mcpNameSource } from './mcp-name-header.js';
export type {
  DurationHistogramLike,
  McpOperationFailure,
  McpOperationParts,
  McpOperationRecord,
  OperationSpanLike,
} from './mcp-operation-record.js';
export { createMcpOperationRecord } from './mcp-operation-record.js';
export type { McpRequestDescription } from './mcp-semantic-conventions.js';
export {
  describeMcpRequest,
  executeToolOperation,
  McpAttribute,
  McpMetric,
  mcpDurationBuckets,
  mcpSpanName,
  networkTransportOf,
  otherErrorType,
  timeoutErrorType,
  toolErrorType,
} from './mcp-semantic-conventions.js';
export type { ModelHiddenReason, ModelVisibilityInput } from './model-visibility.js';
export { isAppCallable, isModelFacing, modelFacingTools, modelHiddenReason } from './model-visibility.js';
export { compileNameGlob } from './name-glob.js';
export type {
  NativeAddonFailure,
  NativeAddonFailureKind,
  NativeAddonFailureOptions,
} from './native-addon-failure.js';
export { describeNativeAddonFailure } from './native-addon-failure.js';
export type {
  MaybePromise,
  RegistryStore,
  StoredConnectResult,
  StoredServer,
  StoredTool,
  StoredToolInput,
  ToolCallRecord,
  ToolUsage,
} from './registry-store.js';
export type { CheckToolSchemaOptions, SchemaProblem } from './schema/check-tool-schema.js';
export { checkToolName, checkToolSchema } from './schema/check-tool-schema.js';
export type { ConvertibleTool } from './schema/convertible-tool.js';
export type { ConversionResult, LossyChange, LossyChangeKind } from './schema/lossy-change.js';
export type { NormalizeSchemaOptions } from './schema/normalize-schema.js';
export { normalizeSchema } from './schema/normalize-schema.js';
export type { OpenAIStrictLimits, SchemaTarget } from './schema/provider-schema-rules.js';
export { openAIStrictLimits } from './schema/provider-schema-rules.js';
export { removeStrictModeNulls } from './schema/remove-strict-mode-nulls.js';
export type { AnthropicTool } from './schema/to-anthropic-tool.js';
export { toAnthropicTool } from './schema/to-anthropic-tool.js';
export type { FlatParameter, FlatParameters } from './schema/to-flat-parameters.js';
export { toFlatParameters } from './schema/to-flat-parameters.js';
export type { GeminiFunctionDeclaration } from './schema/to-gemini-function.js';
export { toGeminiFunction } from './schema/to-gemini-function.js';
export type { OpenAIFunctionTool, ToOpenAIToolOptions } from './schema/to-openai-tool.js';
export { toOpenAITool } from './schema/to-openai-tool.js';
export { toZodSchema } from './schema/to-zod-schema.js';
export type { SwitchboardErrorCode, SwitchboardErrorOptions } from './switchboard-error.js';
export { SwitchboardError } from './switchboard-error.js';
export type {
  HistogramOf,
  InstrumentProviders,
  InstrumentScope,
  TelemetryInstruments,
  TracerOf,
} from './telemetry-instruments.js';
export { createTelemetryInstruments } from './telemetry-instruments.js';
export type { TelemetryOptions, TelemetrySetting } from './telemetry-options.js';
export type {
  AnthropicToolReference,
  AnthropicToolSearchResult,
  ToAnthropicToolReferencesOptions,
} from './to-anthropic-tool-references.js';
export { noToolFoundText, toAnthropicToolReferences } from './to-anthropic-tool-references.js';
export type {
  AnthropicToolResult,
  AnthropicToolResultBlock,
  ToAnthropicToolResultOptions,
} from './to-anthropic-tool-result.js';
export { toAnthropicToolResult } from './to-anthropic-tool-result.js';
export type {
  GeminiFunctionResponse,
  GeminiInlineDataPart,
  ToGeminiFunctionResponseOptions,
} from './to-gemini-function-response.js';
export { toGeminiFunctionResponse } from './to-gemini-function-response.js';
export type {
  OpenAIToolOutput,
  OpenAIToolOutputPart,
  ToOpenAIToolOutputOptions,
} from './to-openai-tool-output.js';
export { toOpenAIToolOutput } from './to-openai-tool-output.js';
export type {
  OpenAINamespaceFunction,
  OpenAINamespaceTool,
  OpenAIToolSearchCall,
  OpenAIToolSearchOutput,
  OpenAIToolSearchTool,
} from './to-openai-tool-search-output.js';
export { toOpenAIToolSearchOutput } from './to-openai-tool-search-output.js';
export type {
  AppResourceCsp,
  AppResourceMeta,
  AppResourcePermissions,
  ToolApp,
  ToolAudience,
} from './tool-app.js';
export {
  appUriScheme,
  isAppResourceUri,
  legacyAppResourceUriKey,
  mcpAppMimeType,
  mcpAppsExtensionId,
  readAppResourceMeta,
  readToolApp,
  toolAppAllows,
} from './tool-app.js';
export type {
  JsonSchema,
  McpToolDefinition,
  RegisteredTool,
  ToolAnnotations,
  ToolApprovalState,
  ToolExecuteOptions,
} from './tool-definition.js';
export type { ToolFilter, ToolFilterOptions } from './tool-filter.js';
export { createToolFilter } from './tool-filter.js';
export type { ToolNameParts, ToolNameStyle, ToolNamingOptions } from './tool-name.js';
export { createToolName, defaultToolNameMaxLength, sanitizeToolName } from './tool-name.js';
export type {
  ToolInput,
  ToolListFilter,
  ToolRegistry,
  ToolRegistryEvent,
  ToolRegistryListener,
  ToolRegistryOptions,
} from './tool-registry.js';
export { createToolRegistry } from './tool-registry.js';
export type {
  ToolResultContent,
  ToolResultContentOptions,
  ToolResultModality,
  ToolResultPart,
} from './tool-result-content.js';
export { defaultMaxMediaBytes, toToolResultContent } from './tool-result-content.js';
export {
  perStepSearchGuidance,
  toolSearchDefaults,
  toolSearchQueryDescription,
} from './tool-search-defaults.js';
export { canonicalJson } from './trust/canonical-json.js';
export type { SkeletonOf } from './trust/confusable-skeleton.js';
export { asciiSkeleton, loadSkeleton } from './trust/confusable-skeleton.js';
export { defaultToolRules } from './trust/default-tool-rules.js';
export type { RemovedDefinition } from './trust/rename-detection.js';
export { detectRenames } from './trust/rename-detection.js';
export type {
  GuardedResult,
  ResultFinding,
  ResultGuard,
  ResultGuardContext,
  ResultGuardOptions,
  ResultGuardOutcome,
} from './trust/result-guard.js';
export { createResultGuard } from './trust/result-guard.js';
export { ConfusableNameCode, confusableNameRule } from './trust/rules/confusable-name-rule.js';
export type { DescriptionBudgets } from './trust/rules/description-budget-rule.js';
export {
  createDescriptionBudgetRule,
  DescriptionBudgetCode,
  defaultDescriptionBudgets,
  descriptionBudgetRule,
} from './trust/rules/description-budget-rule.js';
export { HiddenMarkupCode, hiddenMarkupRule } from './trust/rules/hidden-markup-rule.js';
export { InvisibleUnicodeCode, invisibleUnicodeRule } from './trust/rules/invisible-unicode-rule.js';
export { ModelInstructionCode, modelInstructionRule } from './trust/rules/model-instruction-rule.js';
export { isDistinctiveName, ShadowingCode, shadowingRule } from './trust/rules/shadowing-rule.js';
export type { SecretPattern } from './trust/secret-patterns.js';
export { defaultSecretPatterns } from './trust/secret-patterns.js';
export type { ToolChecker, ToolCheckerOptions, ToolCheckOptions, ToolToCheck } from './trust/tool-checker.js';
export { createToolChecker, ruleFailedCode } from './trust/tool-checker.js';
export type { Sha256Hex, ToolDefinitionPart, TrustableTool } from './trust/tool-definition-digest.js';
export {
  canonicalToolDefinition,
  changedParts,
  digestDefinitionText,
  digestToolDefinition,
  modelVisibleDefinition,
  sha256Hex,
  toolDigestPrefix,
} from './trust/tool-definition-digest.js';
export type { FindingSeverity, ToolFinding } from './trust/tool-finding.js';
export {
  excerptOf,
  findingSeverities,
  severityAtLeast,
  severityRank,
  visibleText,
} from './trust/tool-finding.js';
export type { CheckedTool, RuleFinding, ToolRule, ToolRuleContext } from './trust/tool-rule.js';
export type { ToolText } from './trust/tool-texts.js';
export { toolTexts } from './trust/tool-texts.js';
export type { ToolTrust, ToolTrustEvent, ToolTrustOptions, ToolTrustTarget } from './trust/tool-trust.js';
export { createToolTrust } from './trust/tool-trust.js';
export type {
  ToolTrustChangeListener,
  ToolTrustKey,
  ToolTrustRecord,
  ToolTrustStore,
  TrustChange,
  TrustStatus,
} from './trust/tool-trust-store.js';
export { createMemoryTrustStore } from './trust/tool-trust-store.js';
export type { ResolvedTrustPolicy, ToolTrustPolicy } from './trust/trust-policy.js';
export { checkTrustPolicy, defaultTrustPolicy, resolveTrustPolicy } from './trust/trust-policy.js';
export type {
  ListingReview,
  ListingReviewInput,
  ReviewedTool,
  ToolTrustState,
  ToolTrustVerdict,
} from './trust/trust-review.js';
export { findingKey, reviewListing } from './trust/trust-review.js';
export type { TrustSpanAttributes } from './trust/trust-span-events.js';
export {
  findingSpanAttributes,
  maxTrustExcerptLength,
  safeTrustExcerpt,
  TrustAttribute,
  TrustSpanEvent,
  trustReviewSpanName,
  verdictSpanAttributes,
} from './trust/trust-span-events.js';
export type {
  ArgumentValidationResult,
  ArgumentValidator,
  ArgumentValidatorOptions,
  ArgumentValidatorStats,
  SchemaDialect,
  ValidatableTool,
} from './validation/argument-validator.js';
export { createArgumentValidator, schemaDialect } from './validation/argument-validator.js';
export type { ValidationProblem } from './validation/validation-problem.js';
export type { TraceParent } from './w3c-trace-context.js';
export { formatTraceparent, parseTraceparent, TraceContextMetaKey } from './w3c-trace-context.js';
export type {
  ToolResultAttachment,
  ToolResultParts,
  ToolResultTruncation,
  WrappedToolResult,
  WrapToolResultOptions,
} from './wrap-tool-result.js';
export { defaultMaxOutputChars, formatByteSize, wrapToolResult } from './wrap-tool-result.js';
