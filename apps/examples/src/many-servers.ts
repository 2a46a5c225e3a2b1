/**
 * Example 2 — many servers from a config file: an `mcp.json` in the Claude Desktop format (plus
 * Switchboard's per-server options), loaded with `loadConfig` and connected with `connectMcp`.
 * Shows namespacing, a custom prefix, per-server approval, a server that fails to start, and the
 * `status()` and `metrics()` of the connection.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectMcp, loadConfig } from '@switchboard/client';
import type { WrappedToolResult } from '@switchboard/core';
import { officialServer } from './official-servers.js';

const folder = await mkdtemp(join(tmpdir(), 'switchboard-many-'));
const everything = officialServer('everything', ['stdio']);
// biome-ignore lint/suspicious/noTemplateCurlyInString: a config variable, expanded by loadConfig
const filesystem = officialServer('filesystem', ['${WORKSPACE}']);
const memory = officialServer('memory');
const config = {
  mcpServers: {
    everything: { ...everything, description: 'Reference server: echo, sums, samples' },
    files: { ...filesystem, approval: { allow: ['write_file'] } },
    memory: {
      ...memory,
      prefix: 'kg',
      approval: 'never',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a config variable, expanded by loadConfig
      env: { MEMORY_FILE_PATH: '${WORKSPACE}/memory.jsonl' },
    },
    broken: { command: process.execPath, args: [join(folder, 'no-such-server.js')] },
    later: { ...memory, enabled: false },
  },
};
const configFile = join(folder, 'mcp.json');
await writeFile(configFile, JSON.stringify(config, null, 2));

// `${WORKSPACE}` is expanded from `env`; `enabled: false` entries stay in the config, unconnected.
const loaded = await loadConfig({ configFile, env: { ...process.env, WORKSPACE: folder } });
console.log(`loaded ${Object.keys(loaded.mcpServers).length} servers from ${loaded.sources.length} file(s)`);

// `onError: 'skip'` keeps the healthy servers when one fails; its status says why.
const mcp = await connectMcp(loaded, { onError: 'skip', supervision: { respawn: false } });
try {
  console.log('\ntools per server (namespaced mcp__<prefix>__<tool>):');
  for (const server of mcp.servers) {
    const names = mcp.registry.list({ server }).map((tool) => tool.name);
    console.log(
      `  ${server.padEnd(11)} ${String(names.length).padStart(2)}  ${names.slice(0, 2).join(', ')}`,
    );
  }

  const call = async (name: string, args: Record<string, unknown> = {}): Promise<void> => {
    const result = (await mcp.callTool(name, args)) as WrappedToolResult;
    const text = result.status === 'success' ? result.message : result.error;
    console.log(`  ${name} → ${text.replaceAll(folder, '<tmp>').replace(/\s+/g, ' ').slice(0, 80)}`);
  };
  console.log('\ncalls:');
  await call('mcp__everything__echo', { message: 'hello from switchboard' });
  for (const [a, b] of [
    [1, 2],
    [20, 22],
    [100, 1],
  ])
    await call('mcp__everything__get-sum', { a, b });
  await call('mcp__files__write_file', { path: join(folder, 'todo.md'), content: '- ship\n' }); // allowed by glob
  await call('mcp__files__list_directory', { path: folder });
  await call('mcp__kg__create_entities', {
    entities: [{ name: 'Switchboard', entityType: 'project', observations: ['connects MCP servers'] }],
  });
  await call('mcp__kg__read_graph');
  // move_file is destructive and not in the allow list; with no `approve` callback it is refused.
  try {
    await call('mcp__files__move_file', {
      source: join(folder, 'todo.md'),
      destination: join(folder, 'done.md'),
    });
  } catch (error) {
    console.log(`  mcp__files__move_file → refused: ${(error as { code?: string }).code}`);
  }

  console.log('\nstatus():');
  for (const [server, status] of Object.entries(mcp.status())) {
    const detail = status.lastError
      ? `${status.lastError.code}: ${status.lastError.message.replaceAll(folder, '<tmp>').slice(0, 60)}…`
      : `${status.toolCount} tools from ${status.serverInfo?.name}`;
    console.log(`  ${server.padEnd(11)} ${status.state.padEnd(10)} ${detail}`);
  }

  console.log('\nmetrics():');
  const metrics = mcp.metrics();
  for (const [server, stats] of Object.entries(metrics.servers)) {
    const p50 = stats.p50Ms?.toFixed(1) ?? '-';
    const p95 = stats.p95Ms?.toFixed(1) ?? '-';
    console.log(
      `  ${server.padEnd(11)} calls ${stats.calls}  errors ${stats.errors}  p50 ${p50} ms  p95 ${p95} ms`,
    );
  }
  console.log(`  get-sum alone: ${metrics.tools.everything?.['get-sum']?.calls} calls`);
} finally {
  await mcp.close();
  await rm(folder, { recursive: true, force: true });
}
