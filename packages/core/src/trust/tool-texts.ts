/**
 * The texts of a tool that reach a model, each with the place it came from, so that a rule can
 * name the field it flags (`inputSchema.properties.path.description`) and a person can find it.
 */

import type { TrustableTool } from './tool-definition-digest.js';

/** One model-visible text of a tool. */
export interface ToolText {
  /** Where it is, as a dotted path into the definition (`description`, `inputSchema.properties.q.description`). */
  field: string;
  text: string;
  /** Whether the text is a description (prose a server writes to the model), rather than a title or a value. */
  prose: boolean;
}

// Schema keywords whose string values a model reads as prose or as example values.
const proseKeys = new Set(['description']);
const valueKeys = new Set(['title', 'default', 'const']);

function collectSchema(value: unknown, field: string, texts: ToolText[], depth: number): void {
  // Deeper than any real schema; a hostile one cannot make the walk run forever.
  if (depth > 64 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++)
      collectSchema(value[index], `${field}.${index}`, texts, depth + 1);
    return;
  }
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    const path = `${field}.${key}`;
    if (typeof item === 'string') {
      if (proseKeys.has(key)) texts.push({ field: path, text: item, prose: true });
      else if (valueKeys.has(key)) texts.push({ field: path, text: item, prose: false });
    } else if ((key === 'enum' || key === 'examples') && Array.isArray(item)) {
      for (let index = 0; index < item.length; index++) {
        const entry = item[index];
        if (typeof entry === 'string') texts.push({ field: `${path}.${index}`, text: entry, prose: false });
      }
    } else {
      collectSchema(item, path, texts, depth + 1);
    }
  }
}

/** Every model-visible text of a tool: title, description, annotation title, and the schemas' descriptions, titles and example values. */
export function toolTexts(tool: TrustableTool): ToolText[] {
  const texts: ToolText[] = [];
  if (typeof tool.title === 'string') texts.push({ field: 'title', text: tool.title, prose: false });
  if (typeof tool.description === 'string' && tool.description !== '')
    texts.push({ field: 'description', text: tool.description, prose: true });
  const annotationTitle = tool.annotations?.title;
  if (typeof annotationTitle === 'string')
    texts.push({ field: 'annotations.title', text: annotationTitle, prose: false });
  if (tool.inputSchema !== undefined) collectSchema(tool.inputSchema, 'inputSchema', texts, 0);
  if (tool.outputSchema !== undefined) collectSchema(tool.outputSchema, 'outputSchema', texts, 0);
  return texts;
}
