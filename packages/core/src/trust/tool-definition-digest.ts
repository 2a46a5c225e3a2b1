/**
 * What a model reads of a tool, in one canonical text, and its digest: the unit that trust on first
 * use pins. The text holds the name, title, description, input and output schema (their nested
 * descriptions included), annotations and `_meta.ui` — every part a server can use to speak to the
 * model — and nothing else, so transport details or other `_meta` keys do not count as a change.
 *
 * SHA-256 comes from `@noble/hashes` (audited, dependency-free, synchronous): core also runs in
 * browsers and edge runtimes, where `node:crypto` does not exist and Web Crypto is async only.
 * A Node caller that digests many tools passes `node:crypto`'s hash as `sha256` (it is ~20× faster).
 */

import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { JsonSchema, ToolAnnotations } from '../tool-definition.js';
import { canonicalJson } from './canonical-json.js';

/** A tool as trust checks read it: the fields of an MCP `Tool` that reach a model. */
export interface TrustableTool {
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  inputSchema?: JsonSchema | undefined;
  outputSchema?: JsonSchema | undefined;
  annotations?: ToolAnnotations | undefined;
  _meta?: Record<string, unknown> | undefined;
}

/** A SHA-256 function over UTF-8 text, answering lowercase hex. */
export type Sha256Hex = (text: string) => string;

/** The parts of a definition that {@link changedParts} names. */
export type ToolDefinitionPart =
  | 'name'
  | 'title'
  | 'description'
  | 'inputSchema'
  | 'outputSchema'
  | 'annotations'
  | '_meta.ui';

/** Digests are written `sha256:<64 hex digits>`, so another algorithm could follow without ambiguity. */
export const toolDigestPrefix = 'sha256:';

/** SHA-256 of the UTF-8 bytes of `text`, as lowercase hex (`@noble/hashes`). */
export const sha256Hex: Sha256Hex = (text) => bytesToHex(nobleSha256(utf8ToBytes(text)));

/** The model-visible definition of `tool` as a plain object (absent parts left out). */
export function modelVisibleDefinition(tool: TrustableTool): Record<string, unknown> {
  const definition: Record<string, unknown> = { name: tool.name };
  if (tool.title !== undefined) definition.title = tool.title;
  if (tool.description !== undefined && tool.description !== '') definition.description = tool.description;
  if (tool.inputSchema !== undefined) definition.inputSchema = tool.inputSchema;
  if (tool.outputSchema !== undefined) definition.outputSchema = tool.outputSchema;
  if (tool.annotations !== undefined) definition.annotations = tool.annotations;
  const ui = tool._meta?.ui;
  if (ui !== undefined) definition._meta = { ui };
  return definition;
}

/**
 * The canonical JSON of the tool's model-visible definition. `name` replaces the tool's own name:
 * rename detection compares a new tool written under a removed tool's name with that tool's text.
 */
export function canonicalToolDefinition(tool: TrustableTool, options: { name?: string } = {}): string {
  const definition = modelVisibleDefinition(tool);
  if (options.name !== undefined) definition.name = options.name;
  return canonicalJson(definition);
}

/** The digest (`sha256:…`) of a canonical definition text. */
export function digestDefinitionText(text: string, sha256: Sha256Hex = sha256Hex): string {
  return toolDigestPrefix + sha256(text);
}

/** The digest (`sha256:…`) of the tool's model-visible definition. */
export function digestToolDefinition(tool: TrustableTool, sha256: Sha256Hex = sha256Hex): string {
  return digestDefinitionText(canonicalToolDefinition(tool), sha256);
}

const partOrder: readonly ToolDefinitionPart[] = [
  'name',
  'title',
  'description',
  'inputSchema',
  'outputSchema',
  'annotations',
  '_meta.ui',
];

function partValue(definition: Record<string, unknown>, part: ToolDefinitionPart): unknown {
  if (part === '_meta.ui') return (definition._meta as { ui?: unknown } | undefined)?.ui;
  return definition[part];
}

/** The parts in which two definitions (objects or canonical texts) differ, in a fixed order. */
export function changedParts(
  before: TrustableTool | string,
  after: TrustableTool | string,
): ToolDefinitionPart[] {
  const left =
    typeof before === 'string'
      ? (JSON.parse(before) as Record<string, unknown>)
      : modelVisibleDefinition(before);
  const right =
    typeof after === 'string'
      ? (JSON.parse(after) as Record<string, unknown>)
      : modelVisibleDefinition(after);
  return partOrder.filter(
    (part) => canonicalJson(partValue(left, part)) !== canonicalJson(partValue(right, part)),
  );
}
