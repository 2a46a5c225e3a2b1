/**
 * Where the official MCP reference servers live on disk. They are devDependencies of this app and
 * start as `node <package>/dist/index.js`, so the examples run offline and never reach for npx.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ServerEntry } from '@switchboard/client';

const require = createRequire(import.meta.url);

/** The official servers these examples use. */
export type OfficialServer = 'everything' | 'filesystem' | 'memory';

/** A stdio server entry (the `mcpServers` shape) that starts an official server with `args`. */
export function officialServer(name: OfficialServer, args: string[] = []): ServerEntry {
  const packageDirectory = dirname(require.resolve(`@modelcontextprotocol/server-${name}/package.json`));
  return { command: process.execPath, args: [join(packageDirectory, 'dist', 'index.js'), ...args] };
}
