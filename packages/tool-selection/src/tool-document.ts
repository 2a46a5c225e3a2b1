/**
 * The text a tool is searched by. One function builds it for both indexes and for the content hash,
 * so that any change a user could search for also triggers re-embedding.
 */
import type { JsonSchema, RegisteredTool } from '@switchboard/core';

/** The parts of a tool that selection reads. `RegisteredTool` satisfies it. */
export interface ToolDocumentSource {
  name: string;
  originalName?: string;
  title?: string;
  description?: string;
  inputSchema?: JsonSchema;
  server?: string;
  meta?: Record<string, unknown>;
}

/** A tool's searchable text, by field. */
export interface ToolDocument {
  /** Name words: `read_file`, `readFile` and `fs.read-file` all become "read file". */
  name: string;
  title: string;
  description: string;
  /** Parameter names (split) and descriptions. */
  parameters: string;
  /** Server name (split) and description. */
  server: string;
}

/** Splits an identifier into words: `mcp__github__createIssue` → "mcp github create Issue". */
export function splitIdentifier(identifier: string): string {
  return identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/[_\-.:/\s]+/g, ' ')
    .trim();
}

function collectParameters(schema: unknown, parts: string[], depth: number): void {
  if (depth > 4 || typeof schema !== 'object' || schema === null) return;
  const properties = (schema as { properties?: unknown }).properties;
  if (typeof properties !== 'object' || properties === null) return;
  for (const [name, property] of Object.entries(properties as Record<string, unknown>)) {
    parts.push(splitIdentifier(name));
    if (typeof property === 'object' && property !== null) {
      const description = (property as { description?: unknown }).description;
      if (typeof description === 'string') parts.push(description);
      collectParameters(property, parts, depth + 1);
      collectParameters((property as { items?: unknown }).items, parts, depth + 1);
    }
  }
}

function metaString(meta: Record<string, unknown> | undefined, key: string): string {
  const value = meta?.[key];
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.filter((item) => typeof item === 'string').join(' ');
  return '';
}

/**
 * Splits a run-together lower-case name ("diceroller", "seoanalysis") into the words of `dictionary`
 * it is made of; leftover stretches of three letters or more are kept as words too. Returns
 * undefined when no known word covers at least half the name.
 */
export function splitCompound(word: string, dictionary: ReadonlySet<string>): string[] | undefined {
  const length = word.length;
  // covered[i]: most letters of word[0, i) covered by dictionary words; from[i]: where that word began (-1: a letter skipped).
  const covered = new Array<number>(length + 1).fill(0);
  const from = new Array<number>(length + 1).fill(-1);
  for (let end = 1; end <= length; end++) {
    covered[end] = covered[end - 1] as number;
    from[end] = -1;
    for (let start = Math.max(0, end - 20); start <= end - 3; start++) {
      const candidate = (covered[start] as number) + (end - start);
      if (candidate > (covered[end] as number) && dictionary.has(word.slice(start, end))) {
        covered[end] = candidate;
        from[end] = start;
      }
    }
  }
  if ((covered[length] as number) * 2 < length) return undefined;
  const parts: string[] = [];
  let leftoverEnd = length;
  let position = length;
  while (position > 0) {
    const start = from[position] as number;
    if (start === -1) {
      position--;
      continue;
    }
    if (leftoverEnd - position >= 3) parts.push(word.slice(position, leftoverEnd));
    parts.push(word.slice(start, position));
    position = start;
    leftoverEnd = start;
  }
  if (leftoverEnd >= 3) parts.push(word.slice(0, leftoverEnd));
  parts.reverse();
  return parts.length > 1 ? parts : undefined;
}

const wordPattern = /[a-z]{3,}/g;

/** Name words, plus the words of run-together parts found in the tool's own title and description. */
function nameWords(name: string, context: string): string {
  const words = splitIdentifier(name);
  let dictionary: Set<string> | undefined;
  const extra: string[] = [];
  const lowerContext = context.toLowerCase();
  for (const word of words.toLowerCase().split(' ')) {
    // A word the description itself uses is not run-together: nothing to split.
    if (word.length < 6 || lowerContext.includes(word)) continue;
    dictionary ??= new Set(lowerContext.match(wordPattern) ?? []);
    const parts = splitCompound(word, dictionary);
    if (parts) extra.push(...parts);
  }
  return extra.length > 0 ? `${words} ${extra.join(' ')}` : words;
}

/** Builds the searchable document of a tool. */
export function toToolDocument(tool: ToolDocumentSource): ToolDocument {
  const parameters: string[] = [];
  collectParameters(tool.inputSchema, parameters, 0);
  const serverDescription =
    metaString(tool.meta, 'serverDescription') || metaString(tool.meta, 'server_description');
  const categories = `${metaString(tool.meta, 'category')} ${metaString(tool.meta, 'categories')}`.trim();
  return {
    name: nameWords(tool.originalName ?? tool.name, `${tool.title ?? ''} ${tool.description ?? ''}`),
    title: tool.title ?? '',
    description: tool.description ?? '',
    parameters: parameters.join(' '),
    server: [tool.server ? splitIdentifier(tool.server) : '', serverDescription, categories]
      .filter(Boolean)
      .join(' '),
  };
}

/**
 * The text embedded for the dense signal. Name and description lead: a static model's mean pooling
 * weighs every word alike, so parameter text is kept short to not drown what the tool does.
 */
export function toEmbeddingText(document: ToolDocument): string {
  const head = [document.name, document.title, document.description].filter(Boolean).join(': ');
  return [head, document.parameters.slice(0, 200), document.server.slice(0, 200)].filter(Boolean).join('. ');
}

// cyrb53: a fast, well-mixed 53-bit string hash. Not cryptographic, and it need not be: it only tells
// whether a tool's text changed since its vector was stored; 53 bits put an accidental collision
// between two versions of one tool out of reach.
function cyrb53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** Content hash of a tool document: equal hashes mean the stored embedding is still right. */
export function hashToolDocument(document: ToolDocument): string {
  const text = `${document.name}\u0000${document.title}\u0000${document.description}\u0000${document.parameters}\u0000${document.server}`;
  return `${cyrb53(text).toString(36)}.${text.length.toString(36)}`;
}

/** Categories of a tool used by context boosting: its server and any `meta.category`/`meta.categories`. */
export function toolCategories(tool: Pick<RegisteredTool, 'server' | 'meta'>): string[] {
  const categories = [
    tool.server,
    metaString(tool.meta, 'category'),
    ...(Array.isArray(tool.meta?.categories) ? (tool.meta.categories as unknown[]) : []),
  ];
  return categories.filter((value): value is string => typeof value === 'string' && value.length > 0);
}
