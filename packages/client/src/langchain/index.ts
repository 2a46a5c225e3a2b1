/**
 * Public API of @switchboard/client/langchain: MCP tools, prompts and resources for LangChain and
 * LangGraph. Any new export added here becomes public API: use named exports, not wildcards.
 */

export type { LangChainApprovalAnswer, LangChainApprovalRequest } from './langchain-approval.js';
export type { LangChainToolArtifact } from './langchain-tool-artifact.js';
export type {
  LangChainToolSearch,
  LangChainToolSearchArtifact,
  LangChainToolSearchOptions,
} from './langchain-tool-search.js';
export { createLangChainToolSearch } from './langchain-tool-search.js';
export type { LangChainToolSelection, LangChainToolSelectionOptions } from './select-langchain-tools.js';
export { createLangChainToolSelection, latestUserText } from './select-langchain-tools.js';
export type { LangChainContent } from './to-langchain-content.js';
export { toLangChainBlock, toLangChainContent } from './to-langchain-content.js';
export { toLangChainMessages, toLangChainResourceContent } from './to-langchain-messages.js';
export type { LangChainTool, LangChainToolsOptions } from './to-langchain-tools.js';
export { toLangChainTool, toLangChainTools } from './to-langchain-tools.js';
export { ToolException } from './tool-exception.js';
