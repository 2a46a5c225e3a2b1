/**
 * Public API of @switchboard/core.
 * Any new export added here becomes public API. Use named exports, not wildcards.
 */

export type {
  ApprovalDecision,
  ApprovalFunction,
  ApprovalMode,
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
export type { ConsoleLoggerOptions, Logger, LogMethod } from './logger.js';
export { createConsoleLogger, silentLogger } from './logger.js';
export type { SwitchboardErrorCode, SwitchboardErrorOptions } from './switchboard-error.js';
export { SwitchboardError } from './switchboard-error.js';
export type {
  JsonSchema,
  McpToolDefinition,
  RegisteredTool,
  ToolAnnotations,
  ToolExecuteOptions,
} from './tool-definition.js';
export type { ToolNameParts, ToolNameStyle, ToolNamingOptions } from './tool-name.js';
export { createToolName, defaultToolNameMaxLength, sanitizeToolName } from './tool-name.js';
export type {
  ToolInput,
  ToolRegistry,
  ToolRegistryEvent,
  ToolRegistryListener,
  ToolRegistryOptions,
} from './tool-registry.js';
export { createToolRegistry } from './tool-registry.js';
export type {
  ToolResultAttachment,
  ToolResultParts,
  ToolResultTruncation,
  WrappedToolResult,
  WrapToolResultOptions,
} from './wrap-tool-result.js';
export { defaultMaxOutputChars, formatByteSize, wrapToolResult } from './wrap-tool-result.js';
