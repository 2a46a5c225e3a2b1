/**
 * A tool result as the parts a model can take in: one text part (within the character budget of
 * `wrapToolResult`) and the images, audio and files the result carried, as base64 media parts.
 * Framework adapters and the provider converters build their native blocks from these parts, so
 * every one of them applies the same budget and the same stand-ins.
 *
 * Why stand-ins: a model without a modality (audio to a text-and-vision model), or media over the
 * size budget, would otherwise make the provider reject the whole request. The text part then says
 * what was left out and why, which the model can reason about and tell the user.
 */

import {
  formatByteSize,
  type ToolResultAttachment,
  type ToolResultTruncation,
  wrapToolResult,
} from './wrap-tool-result.js';

/** Media kinds a model may accept. */
export type ToolResultModality = 'image' | 'audio' | 'file';

/** One part of a tool result for a model. */
export type ToolResultPart =
  | { type: 'text'; text: string }
  | { type: 'image' | 'audio' | 'file'; data: string; mimeType: string; uri?: string };

/** What {@link toToolResultContent} returns. */
export interface ToolResultContent {
  isError: boolean;
  /** The text part first (always present, maybe empty), then the media parts in result order. */
  parts: ToolResultPart[];
  /** The text of the result (the first part's text): what a text-only consumer shows. */
  text: string;
  /** `structuredContent` (or a local tool's value), when there was one. */
  data?: unknown;
  /** Media left out, each with why (modality not accepted, over budget). */
  omitted: Array<{ attachment: ToolResultAttachment; reason: 'modality' | 'budget' }>;
  truncated?: ToolResultTruncation;
}

/** Options of {@link toToolResultContent}. */
export interface ToolResultContentOptions {
  /** Media kinds the model accepts; others become a text stand-in. @default ['image', 'file'] */
  modalities?: readonly ToolResultModality[];
  /** Most decoded bytes of media per result; media past it becomes a text stand-in. @default 5 MiB */
  maxMediaBytes?: number;
  /** Longest text part (as `wrapToolResult`). @default 50000 */
  maxOutputChars?: number;
  /** Tool name, for error texts that have no detail of their own. */
  toolName?: string;
}

/** Default `maxMediaBytes`: the largest image Anthropic's API takes, and well inside the others. */
export const defaultMaxMediaBytes = 5 * 1024 * 1024;

const defaultModalities: readonly ToolResultModality[] = ['image', 'file'];

function modalityOf(attachment: ToolResultAttachment): ToolResultModality | undefined {
  if (attachment.type === 'image' || attachment.type === 'audio') return attachment.type;
  // An embedded binary resource (a PDF, a spreadsheet) is a file; a text resource is already in the text.
  if (attachment.type === 'resource' && attachment.data !== undefined) return 'file';
  return undefined;
}

function standIn(attachment: ToolResultAttachment, reason: 'modality' | 'budget', budget: number): string {
  const what = [attachment.type, attachment.mimeType, attachment.uri].filter(Boolean).join(' ');
  const size = attachment.size === undefined ? '' : ` (${formatByteSize(attachment.size)})`;
  return reason === 'modality'
    ? `[${what}${size} not shown: this model does not take ${attachment.type === 'resource' ? 'files' : `${attachment.type}`}]`
    : `[${what}${size} not shown: over the ${formatByteSize(budget)} budget of media per tool result]`;
}

/** Splits a tool result (an MCP `CallToolResult`, an error, or a local tool's value) into model parts. */
export function toToolResultContent(
  result: unknown,
  options: ToolResultContentOptions = {},
): ToolResultContent {
  const accepted = new Set(options.modalities ?? defaultModalities);
  const budget = options.maxMediaBytes ?? defaultMaxMediaBytes;
  const parts = wrapToolResult(result, {
    includeBinary: true,
    ...(options.maxOutputChars === undefined ? {} : { maxOutputChars: options.maxOutputChars }),
    ...(options.toolName === undefined ? {} : { toolName: options.toolName }),
    shape: (wrapped) => wrapped,
  });
  const media: ToolResultPart[] = [];
  const omitted: ToolResultContent['omitted'] = [];
  const notes: string[] = [];
  let used = 0;
  for (const attachment of parts.attachments) {
    const modality = modalityOf(attachment);
    if (modality === undefined || attachment.data === undefined) continue;
    const mimeType = attachment.mimeType ?? 'application/octet-stream';
    if (!accepted.has(modality)) {
      omitted.push({ attachment: withoutData(attachment), reason: 'modality' });
      notes.push(standIn(attachment, 'modality', budget));
      continue;
    }
    const size = attachment.size ?? 0;
    if (used + size > budget) {
      omitted.push({ attachment: withoutData(attachment), reason: 'budget' });
      notes.push(standIn(attachment, 'budget', budget));
      continue;
    }
    used += size;
    media.push({
      type: modality,
      data: attachment.data,
      mimeType,
      ...(attachment.uri === undefined ? {} : { uri: attachment.uri }),
    });
  }
  const text = notes.length === 0 ? parts.message : [parts.message, ...notes].filter(Boolean).join('\n');
  const content: ToolResultContent = {
    isError: parts.isError,
    parts: [{ type: 'text', text }, ...media],
    text,
    omitted,
  };
  if (parts.data !== undefined) content.data = parts.data;
  if (parts.truncated !== undefined) content.truncated = parts.truncated;
  return content;
}

function withoutData(attachment: ToolResultAttachment): ToolResultAttachment {
  const { data: _data, ...rest } = attachment;
  return rest;
}
