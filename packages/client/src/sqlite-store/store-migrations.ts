/**
 * Schema of the SQLite registry store, one migration per version. The file's `PRAGMA user_version`
 * says how many have run; a process that opens an older file brings it up to date, and one that
 * opens a newer file refuses rather than write a shape it does not know.
 */

import { SwitchboardError } from '@switchboard/core';

/**
 * The part of a better-sqlite3 `Database` migrations use, written out so that the published types
 * never name better-sqlite3 (an optional peer whose types a user may not have).
 */
export interface MigratableDatabase {
  transaction(run: () => void): { immediate(): void };
  pragma(source: string, options?: { simple?: boolean }): unknown;
  exec(source: string): unknown;
}

/** Migrations in order; index + 1 is the schema version each produces. Append only. */
export const storeMigrations: readonly string[] = [
  `
  CREATE TABLE servers (
    name TEXT PRIMARY KEY,
    config_hash TEXT NOT NULL,
    transport TEXT NOT NULL,
    last_connect_at TEXT,
    last_connect_ok INTEGER,
    last_error_code TEXT,
    last_error_message TEXT,
    server_name TEXT,
    server_version TEXT
  );
  CREATE TABLE tools (
    server TEXT NOT NULL,
    original_name TEXT NOT NULL,
    public_name TEXT NOT NULL,
    title TEXT,
    description TEXT NOT NULL,
    input_schema TEXT NOT NULL,
    schema_hash TEXT NOT NULL,
    annotations TEXT,
    kind TEXT NOT NULL,
    first_seen_at TEXT NOT NULL,
    last_seen_at TEXT NOT NULL,
    PRIMARY KEY (server, original_name)
  );
  CREATE TABLE tool_usage (
    server TEXT NOT NULL,
    tool TEXT NOT NULL,
    public_name TEXT NOT NULL,
    calls INTEGER NOT NULL DEFAULT 0,
    errors INTEGER NOT NULL DEFAULT 0,
    last_used_at TEXT,
    PRIMARY KEY (server, tool)
  );
  CREATE TABLE tool_latency (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    server TEXT NOT NULL,
    tool TEXT NOT NULL,
    duration_ms REAL NOT NULL
  );
  CREATE INDEX tool_latency_by_tool ON tool_latency (server, tool, id);
  `,
  // 2: tool trust decisions (pinned definitions, quarantine), one row per definition digest.
  `
  CREATE TABLE tool_trust (
    server TEXT NOT NULL,
    tool TEXT NOT NULL,
    digest TEXT NOT NULL,
    status TEXT NOT NULL,
    definition TEXT NOT NULL,
    change TEXT,
    previous_digest TEXT,
    previous_name TEXT,
    parts TEXT,
    findings TEXT,
    decided_at TEXT NOT NULL,
    decided_by TEXT,
    PRIMARY KEY (server, tool, digest)
  );
  `,
];

/** Schema version this code writes. */
export const storeSchemaVersion = storeMigrations.length;

/** Brings the database up to {@link storeSchemaVersion}, inside one write transaction. */
export function migrateStore(database: MigratableDatabase, path: string): void {
  const migrate = database.transaction(() => {
    // Read inside the write lock: two processes opening a new file at once migrate it once.
    const version = database.pragma('user_version', { simple: true }) as number;
    if (version > storeSchemaVersion) {
      throw new SwitchboardError({
        code: 'STORE_UNAVAILABLE',
        message: `Registry store "${path}" has schema version ${version}, newer than this Switchboard knows (${storeSchemaVersion}). Upgrade @switchboard/client, or pass another path.`,
        context: { path, version, supported: storeSchemaVersion },
      });
    }
    for (let index = version; index < storeSchemaVersion; index++) {
      database.exec(storeMigrations[index] as string);
    }
    if (version !== storeSchemaVersion) database.pragma(`user_version = ${storeSchemaVersion}`);
  });
  migrate.immediate();
}
