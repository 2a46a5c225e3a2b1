/** Public API of @switchboard/client/openai-agents. Any new export added here becomes public API: use named exports, not wildcards. */

export { toOpenAIAgentsInput } from './to-openai-agents-input.js';
export type { OpenAIAgentsMcpServerOptions } from './to-openai-agents-mcp-server.js';
export { toOpenAIAgentsMcpServer } from './to-openai-agents-mcp-server.js';
export type { OpenAIAgentsToolOutput } from './to-openai-agents-output.js';
export { toOpenAIAgentsOutput } from './to-openai-agents-output.js';
export type { OpenAIAgentsToolSearchOptions } from './to-openai-agents-tool-search.js';
export { toOpenAIAgentsToolSearch } from './to-openai-agents-tool-search.js';
export type { OpenAIAgentsTool, OpenAIAgentsToolsOptions } from './to-openai-agents-tools.js';
export { toOpenAIAgentsTools } from './to-openai-agents-tools.js';
export { withOpenAIAgentsToolSelection } from './turn-selection.js';
