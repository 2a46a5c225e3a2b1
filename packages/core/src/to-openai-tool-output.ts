/**
 * A tool result as an OpenAI Responses API `function_call_output` item: a plain string when the
 * result is text only, else `input_text`, `input_image` and `input_file` parts. The Responses API
 * takes no audio in a function's output, so audio becomes a text stand-in.
 */
import {
  type ToolResultContentOptions,
  type ToolResultModality,
  toToolResultContent,
} from './tool-result-content.js';

/** A part of a `function_call_output`'s output. */
export type OpenAIToolOutputPart =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string; detail: 'auto' }
  | { type: 'input_file'; file_data: string; filename: string };

/** An OpenAI Responses API `function_call_output` input item. */
export interface OpenAIToolOutput {
  type: 'function_call_output';
  call_id: string;
  output: string | OpenAIToolOutputPart[];
}

/** Options of {@link toOpenAIToolOutput}. */
export interface ToOpenAIToolOutputOptions
  extends Omit<ToolResultContentOptions, 'modalities' | 'mimeTypes'> {
  /** File types the model reads as `input_file`; others become stand-ins. @default ['application/pdf'] */
  fileMimeTypes?: readonly string[];
}

const modalities: readonly ToolResultModality[] = ['image', 'file'];
const imageMimeTypes = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

/** A file name for the model: the last segment of the resource's URI, else one made from its type. */
function fileName(uri: string | undefined, mimeType: string, index: number): string {
  const last = uri?.split(/[/\\]/).pop()?.split(/[?#]/)[0];
  if (last !== undefined && last !== '') return last;
  const extension = mimeType.split('/')[1]?.split(/[+;]/)[0] ?? 'bin';
  return `attachment-${index + 1}.${extension}`;
}

/**
 * Converts a tool result (an MCP `CallToolResult`, an error, or a value) into an OpenAI
 * `function_call_output` item. An error result is its text: the Responses API has no error flag,
 * and the text says it failed.
 */
export function toOpenAIToolOutput(
  callId: string,
  result: unknown,
  options: ToOpenAIToolOutputOptions = {},
): OpenAIToolOutput {
  const { fileMimeTypes, ...budgets } = options;
  const content = toToolResultContent(result, {
    ...budgets,
    modalities,
    mimeTypes: { image: imageMimeTypes, file: fileMimeTypes ?? ['application/pdf'] },
  });
  if (content.parts.length === 1)
    return { type: 'function_call_output', call_id: callId, output: content.text };
  const output: OpenAIToolOutputPart[] = [];
  let files = 0;
  for (const part of content.parts) {
    if (part.type === 'text') {
      if (part.text !== '') output.push({ type: 'input_text', text: part.text });
    } else if (part.type === 'image') {
      output.push({
        type: 'input_image',
        image_url: `data:${part.mimeType};base64,${part.data}`,
        detail: 'auto',
      });
    } else if (part.type === 'file') {
      output.push({
        type: 'input_file',
        file_data: `data:${part.mimeType};base64,${part.data}`,
        filename: fileName(part.uri, part.mimeType, files++),
      });
    }
  }
  return { type: 'function_call_output', call_id: callId, output };
}
