/**
 * Turns an MCP `CallToolResult` into what an agent loop feeds back to a model: one text `message`
 * within a character budget, structured data kept apart, binary content summarised instead of
 * pasted as base64 (which wastes the context window and tells the model nothing).
 */

import { SwitchboardError } from './switchboard-error.js';

/** Something a result carried besides plain text (image, audio, embedded resource, resource link). */
export interface ToolResultAttachment {
  type: 'image' | 'audio' | 'resource' | 'resource_link';
  mimeType?: string;
  /** Size in bytes: decoded binary size, text length, or what a resource link declares. */
  size?: number;
  uri?: string;
  name?: string;
  title?: string;
  description?: string;
  /** Base64 data, only with `includeBinary: true`. */
  data?: string;
}

/** What was cut to fit the budget. */
export interface ToolResultTruncation {
  /** Characters of the message that were cut (omitted items included). */
  omittedChars: number;
  /** Characters the full message had. */
  totalChars: number;
  /** Content items left out entirely. */
  omittedItems: number;
  /** Content items the result had. */
  totalItems: number;
}

/** The default shape: GAIA's, plus attachments and truncation facts. */
export type WrappedToolResult =
  | {
      status: 'success';
      message: string;
      /** `structuredContent` when the tool returned it (or the value a local tool returned). */
      data?: unknown;
      /** A hint for the model about what to do next (e.g. how to see what was truncated). */
      instruction?: string;
      attachments?: ToolResultAttachment[];
      truncated?: ToolResultTruncation;
    }
  | {
      status: 'error';
      error: string;
      data?: unknown;
      attachments?: ToolResultAttachment[];
      truncated?: ToolResultTruncation;
    };

/** Everything {@link wrapToolResult} works out, handed to a custom `shape`. */
export interface ToolResultParts {
  isError: boolean;
  /** Text of the result within the budget (an error's text when `isError`). */
  message: string;
  data: unknown;
  attachments: ToolResultAttachment[];
  instruction: string | undefined;
  truncated: ToolResultTruncation | undefined;
  /** The result as given. */
  raw: unknown;
}

/** Options of {@link wrapToolResult}. */
export interface WrapToolResultOptions<T = WrappedToolResult> {
  /** Longest `message`/`error`, marker included; the rest is cut with a marker saying how much. @default 50000 */
  maxOutputChars?: number;
  /** Instruction added to successful results (joined with any truncation hint). @default undefined */
  instruction?: string;
  /** Keep base64 data in `attachments` (never in the message). @default false */
  includeBinary?: boolean;
  /** Tool name, for error texts that have no detail of their own. @default undefined */
  toolName?: string;
  /** Builds your own shape from the parts. @default GAIA's `{status, message, data, instruction}` */
  shape?: (parts: ToolResultParts) => T;
}

/** Default `maxOutputChars`. */
export const defaultMaxOutputChars = 50_000;

type ContentBlock = { type?: unknown; [key: string]: unknown };

function base64Size(data: unknown): number | undefined {
  if (typeof data !== 'string') return undefined;
  const clean = data.replace(/\s/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

/** `532 B`, `1.2 KB`, `3.4 MB`: sizes a model (and a person) reads at a glance. */
export function formatByteSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function describeAttachment(parts: Array<string | undefined>): string {
  return parts.filter((part): part is string => part !== undefined && part !== '').join(', ');
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function toJsonText(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Renders one content block to text and, for non-text blocks, an attachment. */
function renderBlock(
  block: ContentBlock,
  includeBinary: boolean,
): { text: string; attachment?: ToolResultAttachment } {
  switch (block.type) {
    case 'text':
      return { text: typeof block.text === 'string' ? block.text : '' };
    case 'image':
    case 'audio': {
      const mimeType = stringOrUndefined(block.mimeType);
      const size = base64Size(block.data);
      const attachment: ToolResultAttachment = { type: block.type };
      if (mimeType) attachment.mimeType = mimeType;
      if (size !== undefined) attachment.size = size;
      if (includeBinary && typeof block.data === 'string') attachment.data = block.data;
      const summary = describeAttachment([mimeType, size === undefined ? undefined : formatByteSize(size)]);
      return { text: `[${block.type}${summary ? `: ${summary}` : ''}]`, attachment };
    }
    case 'resource': {
      const resource = (
        typeof block.resource === 'object' && block.resource !== null ? block.resource : {}
      ) as Record<string, unknown>;
      const uri = stringOrUndefined(resource.uri);
      const mimeType = stringOrUndefined(resource.mimeType);
      const attachment: ToolResultAttachment = { type: 'resource' };
      if (uri) attachment.uri = uri;
      if (mimeType) attachment.mimeType = mimeType;
      if (typeof resource.text === 'string') {
        attachment.size = resource.text.length;
        const header = `[resource: ${describeAttachment([uri, mimeType])}]`;
        return { text: `${header}\n${resource.text}`, attachment };
      }
      const size = base64Size(resource.blob);
      if (size !== undefined) attachment.size = size;
      if (includeBinary && typeof resource.blob === 'string') attachment.data = resource.blob;
      const summary = describeAttachment([
        uri,
        mimeType,
        size === undefined ? undefined : formatByteSize(size),
      ]);
      return { text: `[resource: ${summary}]`, attachment };
    }
    case 'resource_link': {
      const attachment: ToolResultAttachment = { type: 'resource_link' };
      const uri = stringOrUndefined(block.uri);
      const name = stringOrUndefined(block.name);
      const title = stringOrUndefined(block.title);
      const description = stringOrUndefined(block.description);
      const mimeType = stringOrUndefined(block.mimeType);
      const size = typeof block.size === 'number' ? block.size : undefined;
      if (uri) attachment.uri = uri;
      if (name) attachment.name = name;
      if (title) attachment.title = title;
      if (description) attachment.description = description;
      if (mimeType) attachment.mimeType = mimeType;
      if (size !== undefined) attachment.size = size;
      const summary = describeAttachment([
        title ?? name,
        uri,
        mimeType,
        size === undefined ? undefined : formatByteSize(size),
      ]);
      return { text: `[resource link: ${summary}]${description ? ` ${description}` : ''}`, attachment };
    }
    default:
      return {
        text: `[content of unsupported type ${JSON.stringify(block.type ?? null)}: ${toJsonText(block)}]`,
      };
  }
}

/** Joins rendered items within the budget; what does not fit is counted in a marker. */
function fitToBudget(
  items: string[],
  maxOutputChars: number,
): { message: string; truncated?: ToolResultTruncation } {
  const separator = '\n\n';
  const full = items.join(separator);
  if (full.length <= maxOutputChars) return { message: full };
  const marker = (omittedChars: number, omittedItems: number): string =>
    `\n…[truncated: ${omittedChars} of ${full.length} characters cut` +
    (omittedItems > 0 ? `; ${omittedItems} of ${items.length} content items omitted` : '') +
    ']';
  // The marker's own length depends on the numbers in it: reserve the longest it can be.
  const reserve = marker(full.length, items.length).length;
  const keep = Math.max(0, maxOutputChars - reserve);
  let kept = '';
  let keptItems = 0;
  for (const [index, item] of items.entries()) {
    const piece = index === 0 ? item : separator + item;
    if (kept.length + piece.length <= keep) {
      kept += piece;
      keptItems++;
      continue;
    }
    const room = keep - kept.length;
    // Cut into an item only when a useful part of it fits; otherwise it counts as omitted.
    if (room > separator.length) {
      kept += piece.slice(0, room);
      keptItems++;
    }
    break;
  }
  const truncated: ToolResultTruncation = {
    omittedChars: full.length - kept.length,
    totalChars: full.length,
    omittedItems: items.length - keptItems,
    totalItems: items.length,
  };
  const message = (kept + marker(truncated.omittedChars, truncated.omittedItems)).slice(0, maxOutputChars);
  return { message, truncated };
}

function defaultShape(parts: ToolResultParts): WrappedToolResult {
  const extras = {
    ...(parts.data === undefined ? {} : { data: parts.data }),
    ...(parts.attachments.length > 0 ? { attachments: parts.attachments } : {}),
    ...(parts.truncated ? { truncated: parts.truncated } : {}),
  };
  if (parts.isError) return { status: 'error', error: parts.message, ...extras };
  return {
    status: 'success',
    message: parts.message,
    ...extras,
    ...(parts.instruction === undefined ? {} : { instruction: parts.instruction }),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Wraps a tool result for a model. Accepts an MCP `CallToolResult` (text, image, audio, resource,
 * resource_link content; `structuredContent`; `isError`), the legacy `{toolResult}` form, a thrown
 * `Error`, or whatever a local tool returned (a string becomes the message, other values are shown
 * as JSON and kept as `data`).
 */
export function wrapToolResult<T = WrappedToolResult>(
  result: unknown,
  options: WrapToolResultOptions<T> = {},
): T {
  const maxOutputChars = options.maxOutputChars ?? defaultMaxOutputChars;
  if (!Number.isInteger(maxOutputChars) || maxOutputChars < 1) {
    throw new SwitchboardError({
      code: 'INVALID_ARGUMENT',
      message: `wrapToolResult: maxOutputChars must be a positive integer (got ${String(maxOutputChars)}).`,
      context: { maxOutputChars },
    });
  }
  const includeBinary = options.includeBinary ?? false;
  const label = options.toolName ? `Tool "${options.toolName}"` : 'The tool';

  let isError = false;
  let items: string[] = [];
  let data: unknown;
  const attachments: ToolResultAttachment[] = [];

  if (result instanceof Error) {
    isError = true;
    items = [result.message || `${label} failed with ${result.name}.`];
    const context = (result as { context?: unknown }).context;
    if (isRecord(context) && Object.keys(context).length > 0) data = context;
  } else if (isRecord(result) && Array.isArray(result.content)) {
    isError = result.isError === true;
    for (const block of result.content) {
      const rendered = renderBlock(
        isRecord(block) ? block : { type: typeof block, value: block },
        includeBinary,
      );
      items.push(rendered.text);
      if (rendered.attachment) attachments.push(rendered.attachment);
    }
    if (result.structuredContent !== undefined) {
      data = result.structuredContent;
      // MCP asks servers to mirror structured content as text, but not all do.
      if (items.every((item) => item === '')) items = [toJsonText(result.structuredContent)];
    }
    items = items.filter((item) => item !== '');
    if (items.length === 0 && isError) items = [`${label} reported an error without details.`];
  } else if (isRecord(result) && 'toolResult' in result) {
    data = result.toolResult;
    items = [typeof data === 'string' ? data : toJsonText(data)];
  } else if (typeof result === 'string') {
    items = [result];
  } else if (result !== undefined) {
    data = result;
    items = [toJsonText(result)];
  }

  const { message, truncated } = fitToBudget(items, maxOutputChars);
  const hints: string[] = [];
  if (options.instruction) hints.push(options.instruction);
  if (truncated && !isError) {
    hints.push(
      `The output was truncated to ${maxOutputChars} characters; ask for less (a narrower query, a range, a filter or a page) to see the rest.`,
    );
  }
  const parts: ToolResultParts = {
    isError,
    message,
    data,
    attachments,
    instruction: hints.length > 0 ? hints.join(' ') : undefined,
    truncated,
    raw: result,
  };
  const shape = options.shape ?? (defaultShape as unknown as (parts: ToolResultParts) => T);
  return shape(parts);
}
