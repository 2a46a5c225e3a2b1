/**
 * A tool result as a Gemini `functionResponse` part: the text as `response.output` (or
 * `response.error`), and images, audio and PDFs as `inlineData` parts of the response (Gemini 3's
 * multimodal function responses). Other files become text stand-ins.
 */
import {
  type ToolResultContentOptions,
  type ToolResultModality,
  toToolResultContent,
} from './tool-result-content.js';

/** Media inside a Gemini function response. */
export interface GeminiInlineDataPart {
  inlineData: { mimeType: string; data: string };
}

/** A Gemini content part answering a `functionCall`. */
export interface GeminiFunctionResponse {
  functionResponse: {
    name: string;
    /** `output` for a result, `error` for an error result (Gemini's convention). */
    response: { output: string } | { error: string };
    /** Present only when the result carried media. */
    parts?: GeminiInlineDataPart[];
  };
}

/** Options of {@link toGeminiFunctionResponse}: budgets of `toToolResultContent` (the media kinds are Gemini's). */
export type ToGeminiFunctionResponseOptions = Omit<ToolResultContentOptions, 'modalities' | 'mimeTypes'>;

const modalities: readonly ToolResultModality[] = ['image', 'audio', 'file'];
const mimeTypes = {
  image: ['image/png', 'image/jpeg', 'image/webp'],
  audio: ['audio/*'],
  file: ['application/pdf', 'text/plain'],
};

/** Converts a tool result (an MCP `CallToolResult`, an error, or a value) into a Gemini `functionResponse` part. */
export function toGeminiFunctionResponse(
  name: string,
  result: unknown,
  options: ToGeminiFunctionResponseOptions = {},
): GeminiFunctionResponse {
  const content = toToolResultContent(result, { ...options, modalities, mimeTypes });
  const response = content.isError ? { error: content.text } : { output: content.text };
  const parts: GeminiInlineDataPart[] = [];
  for (const part of content.parts) {
    if (part.type !== 'text') parts.push({ inlineData: { mimeType: part.mimeType, data: part.data } });
  }
  return { functionResponse: { name, response, ...(parts.length === 0 ? {} : { parts }) } };
}
