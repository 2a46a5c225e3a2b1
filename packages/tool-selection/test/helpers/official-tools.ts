/**
 * Fetches the real tool lists of the three official MCP servers, over stdio with the SDK client,
 * so that selection is tested on what servers actually publish.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { McpToolDefinition, ToolInput } from '@switchboard/core';

const require = createRequire(import.meta.url);
const serverDirectory = (name: string) =>
  dirname(require.resolve(`@modelcontextprotocol/${name}/package.json`));

/** Tools of one server, as it listed them. */
export interface ServerTools {
  server: string;
  tools: Array<Omit<ToolInput, 'server'>>;
}

async function listTools(command: string[], env: Record<string, string> = {}): Promise<McpToolDefinition[]> {
  const [script, ...args] = command;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [script as string, ...args],
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'tool-selection-test', version: '0.0.0' });
  try {
    await client.connect(transport);
    const result = await client.listTools();
    return result.tools as McpToolDefinition[];
  } finally {
    await client.close();
  }
}

/** Starts server-everything, server-filesystem and server-memory, lists their tools, stops them. */
export async function fetchOfficialTools(): Promise<ServerTools[]> {
  const scratch = mkdtempSync(join(tmpdir(), 'tool-selection-servers-'));
  try {
    const [everything, filesystem, memory] = await Promise.all([
      listTools([join(serverDirectory('server-everything'), 'dist', 'index.js'), 'stdio']),
      listTools([join(serverDirectory('server-filesystem'), 'dist', 'index.js'), scratch]),
      listTools([join(serverDirectory('server-memory'), 'dist', 'index.js')], {
        MEMORY_FILE_PATH: join(scratch, 'memory.jsonl'),
      }),
    ]);
    // Registry input requires a description; MCP makes it optional.
    const asInput = (tools: McpToolDefinition[]) =>
      tools.map((tool) => ({ ...tool, description: tool.description ?? '' }));
    return [
      { server: 'everything', tools: asInput(everything) },
      { server: 'filesystem', tools: asInput(filesystem) },
      { server: 'memory', tools: asInput(memory) },
    ];
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
