/**
 * Public API of @switchboard/client/ai-sdk: MCP tools, prompts and resources for the Vercel AI SDK
 * (`ai` 6). Any new export added here becomes public API: use named exports, not wildcards.
 */
export type { AdapterToolOptions } from '../framework-adapter/adapter-tool.js';
export type {
  AdapterSelectOptions,
  ToolSelectorLike,
  ToolSource,
  ToolSourceOptions,
} from '../framework-adapter/tool-source.js';
export type { AdapterToolSearchOptions } from '../tool-search/adapter-tool-search.js';
export type { AISDKPrepareStepOptions } from './create-ai-sdk-prepare-step.js';
export { createAISDKPrepareStep } from './create-ai-sdk-prepare-step.js';
export { toAISDKMessages, toAISDKResourceContent } from './to-ai-sdk-messages.js';
export type { AISDKToolResultOutput } from './to-ai-sdk-tool-output.js';
export { toAISDKToolOutput } from './to-ai-sdk-tool-output.js';
export type { AISDKToolSearchOptions, AISDKToolSearchOutput } from './to-ai-sdk-tool-search.js';
export { toAISDKToolSearch } from './to-ai-sdk-tool-search.js';
export type { AISDKToolsOptions } from './to-ai-sdk-tools.js';
export { toAISDKTools } from './to-ai-sdk-tools.js';
