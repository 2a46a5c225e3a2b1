/**
 * The official MCP servers (and MCP Apps example servers) the tests stand on, as this repo's node_modules has them: each started
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

/** The official MCP Apps example servers in this repo's lockfile (`@modelcontextprotocol/ext-apps`'s examples). */
export type OfficialAppServer =
  | 'server-basic-vanillajs'
  | 'server-system-monitor'
  | 'server-budget-allocator';

/** The `dist/index.js` of an official MCP Apps example server (start it with `--stdio`, or with `PORT` for HTTP). */
export function appServerScript(name: OfficialAppServer): string {
  // Their `exports` map only the library entry (`dist/server.js`), not `package.json`.
  return join(dirname(require.resolve(`@modelcontextprotocol/${name}`)), 'index.js');
}

/** A server entry (stdio): an official MCP Apps example server, with `extra` keys added. */
export function appServerStdio(name: OfficialAppServer, extra: Record<string, unknown> = {}) {
  return { command: process.execPath, args: [appServerScript(name), '--stdio'], ...extra };
}
