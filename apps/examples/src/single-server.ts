/**
 * Example 1 — one server: connect `server-filesystem` on a temporary folder, list its tools and
 * call a few of them through the namespaced registry.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectMcp } from '@switchboard/client';
import { classifyToolKind, type WrappedToolResult } from '@switchboard/core';
import { officialServer } from './official-servers.js';

const folder = await mkdtemp(join(tmpdir(), 'switchboard-single-'));
await writeFile(join(folder, 'notes.txt'), 'Switchboard connects agents to MCP servers.\n');

// The server may touch `folder` only. Tools that write ask first; this example says yes.
const mcp = await connectMcp(
  { filesystem: officialServer('filesystem', [folder]) },
  {
    approve: ({ name, reason }) => {
      console.log(`  approved ${name} (${reason})`);
      return true;
    },
  },
);
try {
  const tools = Object.values(mcp.tools);
  console.log(`filesystem offers ${tools.length} tools:`);
  for (const tool of tools) console.log(`  ${tool.name.padEnd(44)} ${classifyToolKind(tool)}`);

  // `callTool` validates the arguments, applies the approval policy and wraps the result.
  const call = async (name: string, args: Record<string, unknown>): Promise<void> => {
    console.log(`\n${name} ${JSON.stringify(args).replaceAll(folder, '<tmp>')}`);
    const result = (await mcp.callTool(name, args)) as WrappedToolResult;
    const text = result.status === 'success' ? result.message : result.error;
    console.log(`→ ${result.status}: ${text.trim().replaceAll(folder, '<tmp>')}`);
  };
  await call('mcp__filesystem__write_file', { path: join(folder, 'plan.md'), content: '# Plan\n' });
  await call('mcp__filesystem__list_directory', { path: folder });
  await call('mcp__filesystem__read_text_file', { path: join(folder, 'notes.txt') });

  // Bad arguments never reach the server: they are checked against the tool's schema first.
  try {
    await mcp.callTool('mcp__filesystem__read_text_file', { path: 42 });
  } catch (error) {
    console.log('\nmcp__filesystem__read_text_file {"path":42} → rejected before reaching the server:');
    console.log((error as Error).message.split('\n').slice(0, 2).join('\n'));
  }
} finally {
  await mcp.close();
  await rm(folder, { recursive: true, force: true });
}
