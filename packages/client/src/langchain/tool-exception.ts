/**
 * The error a LangChain tool throws when the MCP tool answered `isError` and no tool call id was
 * there to put on an error ToolMessage (a direct `tool.invoke(args)`). Named like the
 * `ToolException` of `@langchain/mcp-adapters`, which throws it for the same case.
 */

import type { LangChainToolArtifact } from './langchain-tool-artifact.js';

/** A tool's own error answer (its text is the message), thrown outside an agent's tool call. */
export class ToolException extends Error {
  /** The result's structured content and media, when the error answer carried any. */
  readonly artifact: LangChainToolArtifact | undefined;

  constructor(message: string, options: { artifact?: LangChainToolArtifact; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ToolException';
    this.artifact = options.artifact;
  }
}
