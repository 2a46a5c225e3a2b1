/**
 * Public API of @switchboard/client/mastra: MCP tools for Mastra agents. Any new export added here
 * becomes public API: use named exports, not wildcards.
 */

export type { MastraPrepareStep, MastraPrepareStepOptions } from './create-mastra-prepare-step.js';
export { createMastraPrepareStep, latestUserText } from './create-mastra-prepare-step.js';
export type { MastraToolSearchOptions } from './to-mastra-tool-search.js';
export { toMastraToolSearch } from './to-mastra-tool-search.js';
export type {
  MastraModelOutput,
  MastraTool,
  MastraToolOutput,
  MastraToolsOptions,
} from './to-mastra-tools.js';
export { toMastraModelOutput, toMastraTool, toMastraTools } from './to-mastra-tools.js';
