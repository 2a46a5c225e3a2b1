/**
 * The server set of the larger examples: the three official reference servers plus the ~500-tool
 * catalogue server, as an `mcpServers` map for `connectMcp`.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServerEntry } from '@switchboard/client';
import { officialServer } from './official-servers.js';

const appDirectory = join(dirname(fileURLToPath(import.meta.url)), '..');

/** A stdio entry that starts the catalogue server (TypeScript source, run through tsx). */
export function catalogueServer(): ServerEntry {
  return {
    command: process.execPath,
    args: ['--import', 'tsx', join('src', 'servers', 'catalogue-server.ts')],
    cwd: appDirectory,
    description: 'Business services: calendar, email, CRM, billing, travel, cloud and 44 more',
  };
}

/** everything + filesystem (on `folder`) + memory + the catalogue. */
export function largeToolSet(folder: string): Record<string, ServerEntry> {
  return {
    everything: officialServer('everything', ['stdio']),
    filesystem: officialServer('filesystem', [folder]),
    memory: { ...officialServer('memory'), env: { MEMORY_FILE_PATH: join(folder, 'memory.jsonl') } },
    catalogue: catalogueServer(),
  };
}
