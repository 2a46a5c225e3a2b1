/**
 * The artifact of a LangChain ToolMessage: the part of an MCP result the model does not read as text
 * (structured content, media, what was left out). Its own file because both the tool wrapper and
 * `ToolException` carry one, and the exception must not import the wrapper that throws it.
 */
import type { ToolResultContent, ToolResultPart } from '@switchboard/core';

/** The artifact of a ToolMessage (`message.artifact`): what the model does not read as text. */
export interface LangChainToolArtifact {
  isError: boolean;
  /** The result's `structuredContent`, when it had one. */
  structuredContent?: unknown;
  /** The result's media (images, audio, files), as also in the content. */
  media: ToolResultPart[];
  /** Media left out of the content (modality not accepted, over the budget), each with why. */
  omitted: ToolResultContent['omitted'];
}

/** The artifact of a result already turned into model parts. */
export function artifactOf(content: ToolResultContent): LangChainToolArtifact {
  const artifact: LangChainToolArtifact = {
    isError: content.isError,
    media: content.parts.filter((part) => part.type !== 'text'),
    omitted: content.omitted,
  };
  if (content.data !== undefined) artifact.structuredContent = content.data;
  return artifact;
}
