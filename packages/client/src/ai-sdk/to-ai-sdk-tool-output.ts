/**
 * A tool result, as model parts, in the AI SDK's `ToolResultOutput` shape: what `toModelOutput`
 * hands the model. Text alone stays `text` (every provider takes it); media makes it `content`
 * with `image-data` and `file-data` parts; an error result is `error-text`, which providers send
 * with their error flag (Anthropic's `is_error`), so the model knows the call failed.
 */

import type { ToolResultContent } from '@switchboard/core';
import type { ToolResultPart } from 'ai';

/** The AI SDK's tool result output (`ToolResultOutput`, which `ai` does not export by name). */
export type AISDKToolResultOutput = ToolResultPart['output'];

type ContentValue = Extract<AISDKToolResultOutput, { type: 'content' }>['value'];

/** The last segment of a resource URI, as a file name for providers that want one. */
function fileName(uri: string | undefined): string | undefined {
  const last = uri?.split(/[/\\]/).pop()?.split(/[?#]/)[0];
  return last === undefined || last === '' ? undefined : last;
}

/** Converts a tool result's model parts into the AI SDK's tool result output. */
export function toAISDKToolOutput(content: ToolResultContent): AISDKToolResultOutput {
  // An error's media (rare) is left out: `error-text` has no room for it, and the text says what failed.
  if (content.isError) return { type: 'error-text', value: content.text };
  if (content.parts.length === 1) return { type: 'text', value: content.text };
  const value: ContentValue = [];
  for (const part of content.parts) {
    if (part.type === 'text') {
      if (part.text !== '') value.push({ type: 'text', text: part.text });
    } else if (part.type === 'image') {
      value.push({ type: 'image-data', data: part.data, mediaType: part.mimeType });
    } else {
      const filename = fileName(part.uri);
      value.push({
        type: 'file-data',
        data: part.data,
        mediaType: part.mimeType,
        ...(filename === undefined ? {} : { filename }),
      });
    }
  }
  return { type: 'content', value };
}
