/**
 * Fetches the real tool lists of the three official MCP servers, over stdio with the SDK client,
 * so that selection is tested on what servers actually publish.
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { McpToolDefinition, ToolInput } from '@switchboard/core';
import { readToolApp } from '@switchboard/core';
import { appServerScript, createTemporaryDirectory, serverScript } from '@switchboard/test-helpers';

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
  using scratch = createTemporaryDirectory('tool-selection-servers-');
  const [everything, filesystem, memory] = await Promise.all([
    listTools([serverScript('server-everything'), 'stdio']),
    listTools([serverScript('server-filesystem'), scratch.path]),
    listTools([serverScript('server-memory')], { MEMORY_FILE_PATH: join(scratch.path, 'memory.jsonl') }),
  ]);
  // Registry input requires a description; MCP makes it optional.
  const asInput = (tools: McpToolDefinition[]) =>
    tools.map((tool) => ({ ...tool, description: tool.description ?? '' }));
  return [
    { server: 'everything', tools: asInput(everything) },
    { server: 'filesystem', tools: asInput(filesystem) },
    { server: 'memory', tools: asInput(memory) },
  ];
}

/**
 * Starts the official MCP Apps system-monitor example, lists its tools (one with an app, one
 * app-only helper the app polls), stops it; each tool carries its app metadata as a client keeps it.
 */
export async function fetchAppServerTools(): Promise<ServerTools> {
  const tools = await listTools([appServerScript('server-system-monitor'), '--stdio']);
  return {
    server: 'monitor',
    tools: tools.map((tool) => {
      const app = readToolApp(tool._meta);
      return { ...tool, description: tool.description ?? '', ...(app ? { app } : {}) };
    }),
  };
}
