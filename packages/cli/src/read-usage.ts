/**
 * What the registry store remembers of earlier runs: its servers and each tool's usage. Read by
 * `stats`, `tools --sort usage` and the ui's metrics; its own module so that the inspector and the
 * commands both import it instead of one reaching into another's command.
 */
import { existsSync } from 'node:fs';
import type { StoredServer, ToolUsage } from '@switchboard/core';
import { isPostgresLocation, postgresTargetOf } from './registry-store-of.js';

/**
 * Reads servers and usage from the store at `location` (a SQLite file, or the `postgres://` database
 * replicas share, whose counts are every replica's); empty when no file is there yet.
 */
export async function readUsage(
  location: string,
): Promise<{ location: string; servers: StoredServer[]; tools: ToolUsage[] }> {
  if (isPostgresLocation(location)) {
    const { openPostgresStore } = await import('@switchboard/client/postgres-store');
    const store = await openPostgresStore(postgresTargetOf(location));
    try {
      // The store's own location names the database without its password.
      return { location: store.location, servers: await store.listServers(), tools: await store.listUsage() };
    } finally {
      await store.close();
    }
  }
  // Reading must not create a store where none was.
  if (!existsSync(location)) return { location, servers: [], tools: [] };
  const { openSqliteStore } = await import('@switchboard/client/sqlite-store');
  const store = await openSqliteStore({ path: location });
  try {
    return { location, servers: await store.listServers(), tools: await store.listUsage() };
  } finally {
    await store.close();
  }
}
