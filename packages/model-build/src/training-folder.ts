/**
 * A folder of tool-retrieval data in the bench format (`tools.jsonl`, `queries.jsonl`, optional
 * `negatives.jsonl`; see ../shared/bench/train/README.md), read with the tool documents the runtime
 * builds, so that training sees the texts the selector embeds.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { ToolDocument } from '@switchboard/tool-selection';
import { toEmbeddingText, toToolDocument } from '@switchboard/tool-selection';

/** A tool line of `tools.jsonl`. */
export interface FolderTool {
  name: string;
  description: string;
  inputSchema?: Record<string, unknown>;
  server?: string;
  server_description?: string;
  /** BFCL: variants of one function share it (never negatives of each other). */
  original_name?: string;
}

/** A line of `queries.jsonl` (or of `negatives.jsonl`, whose `expected` is empty). */
export interface FolderQuery {
  query: string;
  expected: string[];
  subset?: string;
  id?: string;
}

/** A loaded folder: tools with their documents and embedded texts, labelled queries, no-tool queries. */
export interface TrainingFolder {
  name: string;
  tools: FolderTool[];
  documents: ToolDocument[];
  texts: string[];
  queries: FolderQuery[];
  negatives: FolderQuery[];
  indexOf: ReadonlyMap<string, number>;
}

function readJsonLines(file: string, required: boolean): Record<string, unknown>[] {
  if (!existsSync(file)) {
    if (!required) return [];
    throw new Error(
      `Missing ${file}: a training folder holds tools.jsonl and queries.jsonl (one JSON object a line).`,
    );
  }
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((line, index) => [line.trim(), index + 1] as const)
    .filter(([line]) => line.length > 0)
    .map(([line, number]) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch (error) {
        throw new Error(`${file}:${number}: not valid JSON (${(error as Error).message}).`);
      }
    });
}

/**
 * Reads a folder. An unlabeled catalogue (no `queries.jsonl`) is allowed with `labelled: false`.
 * The tool document matches the tool-selection bench's registry: a tool without `server` is on
 * server "dataset".
 */
export function readTrainingFolder(directory: string, options: { labelled?: boolean } = {}): TrainingFolder {
  const folder = resolve(directory);
  const tools = readJsonLines(join(folder, 'tools.jsonl'), true).map((line, index) => {
    if (typeof line.name !== 'string' || line.name.length === 0)
      throw new Error(`${join(folder, 'tools.jsonl')}:${index + 1}: "name" must be a non-empty string.`);
    return line as unknown as FolderTool;
  });
  const indexOf = new Map(tools.map((tool, index) => [tool.name, index]));
  const queries = readJsonLines(join(folder, 'queries.jsonl'), options.labelled ?? true).map(
    (line, index) => {
      const expected = Array.isArray(line.expected) ? (line.expected as string[]) : [];
      const unknown = expected.filter((name) => !indexOf.has(name));
      if (typeof line.query !== 'string' || expected.length === 0 || unknown.length > 0)
        throw new Error(
          `${join(folder, 'queries.jsonl')}:${index + 1}: needs "query" and "expected" naming tools of tools.jsonl${unknown.length ? ` (unknown: ${unknown.join(', ')})` : ''}.`,
        );
      return line as unknown as FolderQuery;
    },
  );
  const negatives = readJsonLines(join(folder, 'negatives.jsonl'), false).map((line) => ({
    ...(line as unknown as FolderQuery),
    expected: [],
  }));
  const documents = tools.map((tool) =>
    toToolDocument({
      name: tool.name,
      description: tool.description ?? '',
      inputSchema: (tool.inputSchema ?? { type: 'object' }) as never,
      server: tool.server ?? 'dataset',
      ...(tool.server_description ? { meta: { serverDescription: tool.server_description } } : {}),
    }),
  );
  return {
    name: basename(folder),
    tools,
    documents,
    texts: documents.map((document) => toEmbeddingText(document)),
    queries,
    negatives,
    indexOf,
  };
}
