/** Loads a tool-selection dataset: `tools.jsonl` and `queries.jsonl` in one folder. */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';

/** A tool of the dataset. */
export interface DatasetTool {
  name: string;
  description: string;
  inputSchema?: Record<string, unknown>;
  server?: string;
  server_description?: string;
}

/** A query and the names of the tools that answer it. */
export interface DatasetQuery {
  query: string;
  expected: string[];
}

/** A loaded dataset. */
export interface Dataset {
  name: string;
  tools: DatasetTool[];
  queries: DatasetQuery[];
}

function readJsonLines(file: string): unknown[] {
  if (!existsSync(file)) {
    throw new Error(
      `Missing ${file}: a dataset folder holds tools.jsonl and queries.jsonl (one JSON object a line).`,
    );
  }
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((line, index) => [line.trim(), index + 1] as const)
    .filter(([line]) => line.length > 0)
    .map(([line, lineNumber]) => {
      try {
        return JSON.parse(line) as unknown;
      } catch (error) {
        throw new Error(`${file}:${lineNumber}: not valid JSON (${(error as Error).message}).`);
      }
    });
}

/** Reads and checks a dataset folder. */
export function loadDataset(directory: string): Dataset {
  const folder = resolve(directory);
  const tools = readJsonLines(join(folder, 'tools.jsonl')).map((value, index) => {
    const tool = value as Partial<DatasetTool>;
    if (typeof tool.name !== 'string' || tool.name.length === 0) {
      throw new Error(`${join(folder, 'tools.jsonl')}:${index + 1}: "name" must be a non-empty string.`);
    }
    return {
      name: tool.name,
      description: typeof tool.description === 'string' ? tool.description : '',
      ...(tool.inputSchema && typeof tool.inputSchema === 'object' ? { inputSchema: tool.inputSchema } : {}),
      ...(typeof tool.server === 'string' ? { server: tool.server } : {}),
      ...(typeof tool.server_description === 'string' ? { server_description: tool.server_description } : {}),
    };
  });
  const names = new Set(tools.map((tool) => tool.name));
  const queries = readJsonLines(join(folder, 'queries.jsonl')).map((value, index) => {
    const query = value as Partial<DatasetQuery>;
    if (typeof query.query !== 'string' || !Array.isArray(query.expected) || query.expected.length === 0) {
      throw new Error(
        `${join(folder, 'queries.jsonl')}:${index + 1}: needs "query" (string) and "expected" (non-empty array of tool names).`,
      );
    }
    const unknown = query.expected.filter((name) => !names.has(name));
    if (unknown.length > 0) {
      throw new Error(
        `${join(folder, 'queries.jsonl')}:${index + 1}: expected tool(s) ${unknown.join(', ')} are not in tools.jsonl.`,
      );
    }
    return { query: query.query, expected: query.expected };
  });
  return { name: basename(folder), tools, queries };
}
