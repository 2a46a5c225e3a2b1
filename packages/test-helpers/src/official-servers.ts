/**
 * The official MCP servers the tests stand on, as this repo's node_modules has them: each started
 * with this Node from its own `dist/index.js`, never through `npx` (no network, no install, the
 * pinned version).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** The official server packages in this repo's lockfile. */
export type OfficialServer = 'server-everything' | 'server-filesystem' | 'server-memory';

/** The `dist/index.js` of an official server package. */
export function serverScript(name: OfficialServer): string {
  return join(dirname(require.resolve(`@modelcontextprotocol/${name}/package.json`)), 'dist', 'index.js');
}

/** A server entry (stdio): server-everything, with `extra` keys (`env`, `timeout`, …) added. */
export function everythingStdio(extra: Record<string, unknown> = {}) {
  return { command: process.execPath, args: [serverScript('server-everything'), 'stdio'], ...extra };
}

/** A server entry (stdio): server-filesystem, allowed to read and write `directories`. */
export function filesystemStdio(...directories: string[]) {
  return { command: process.execPath, args: [serverScript('server-filesystem'), ...directories] };
}

/** A server entry (stdio): server-memory, keeping its graph in `memoryFile`. */
export function memoryStdio(memoryFile: string) {
  return {
    command: process.execPath,
    args: [serverScript('server-memory')],
    env: { MEMORY_FILE_PATH: memoryFile },
  };
}
