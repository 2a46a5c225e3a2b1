/**
 * A tool result as the Agents SDK hands it to the model: plain text when the result is text only
 * (the cheapest form, and what every model takes), else the SDK's structured tool outputs
 * (`{ type: 'text' }`, `{ type: 'image' }`, `{ type: 'file' }`), which its runner turns into
 * `input_text` / `input_image` / `input_file` parts of the function call's output.
 */

import type { ToolOutputFileContent, ToolOutputImage, ToolOutputText } from '@openai/agents';
import type { ToolResultContent, ToolResultPart } from '@switchboard/core';

/** What a function tool made by the adapter returns to the Agents SDK. */
export type OpenAIAgentsToolOutput = string | Array<ToolOutputText | ToolOutputImage | ToolOutputFileContent>;

function fileNameOf(part: ToolResultPart & { type: 'image' | 'audio' | 'file' }): string {
  const last = part.uri?.split(/[/\\]/).filter(Boolean).pop();
  return last !== undefined && last !== '' ? last : 'attachment';
}

/** Turns model parts into the Agents SDK's tool output. */
export function toOpenAIAgentsOutput(content: ToolResultContent): OpenAIAgentsToolOutput {
  const media = content.parts.filter((part) => part.type !== 'text');
  if (media.length === 0) return content.text;
  const output: Exclude<OpenAIAgentsToolOutput, string> = [];
  if (content.text !== '') output.push({ type: 'text', text: content.text });
  for (const part of media) {
    if (part.type === 'image') {
      output.push({ type: 'image', image: `data:${part.mimeType};base64,${part.data}` });
    } else if (part.type === 'file') {
      output.push({
        type: 'file',
        file: { data: part.data, mediaType: part.mimeType, filename: fileNameOf(part) },
      });
    }
    // Audio has no tool-output form in the Agents SDK: it is accepted only when a caller lists
    // 'audio' in `content.modalities`, and then it goes to the model as a file.
    else
      output.push({
        type: 'file',
        file: { data: part.data, mediaType: part.mimeType, filename: fileNameOf(part) },
      });
  }
  return output;
}
