/**
 * Core's `ToolTrustStore` v1 on the SQLite registry store's file: the trust decisions of every
 * process on the file. Another process's write (`switchboard tools approve` while `switchboard ui`
 * runs) is noticed by polling `PRAGMA data_version`, which changes only when another connection
 * commits, while a listener is subscribed.
 */

import type { ToolTrustChangeListener, ToolTrustStore } from '@switchboard/core';
import type BetterSqlite3 from 'better-sqlite3';
import { fromTrustRow, type TrustRow, toTrustRow } from '../trust-record-row.js';

type Database = BetterSqlite3.Database;

/** Options of the SQLite trust store. */
export interface SqliteTrustStoreOptions {
  /** How often another process's changes are looked for, while someone listens. @default 1000 */
  pollMs?: number;
}

interface TrustStatements {
  select: BetterSqlite3.Statement;
  selectServer: BetterSqlite3.Statement;
  upsert: BetterSqlite3.Statement;
  remove: BetterSqlite3.Statement;
  removeTool: BetterSqlite3.Statement;
  summary: BetterSqlite3.Statement;
}

const prepared = new WeakMap<Database, TrustStatements>();

function statementsOf(database: Database): TrustStatements {
  let statements = prepared.get(database);
  if (statements === undefined) {
    statements = {
      select: database.prepare('SELECT * FROM tool_trust ORDER BY server, tool, decided_at'),
      selectServer: database.prepare('SELECT * FROM tool_trust WHERE server = ? ORDER BY tool, decided_at'),
      upsert: database.prepare(`
        INSERT INTO tool_trust (server, tool, digest, status, definition, change, previous_digest, previous_name,
          parts, findings, decided_at, decided_by)
        VALUES (@server, @tool, @digest, @status, @definition, @change, @previous_digest, @previous_name,
          @parts, @findings, @decided_at, @decided_by)
        ON CONFLICT (server, tool, digest) DO UPDATE SET
          status = excluded.status, definition = excluded.definition, change = excluded.change,
          previous_digest = excluded.previous_digest, previous_name = excluded.previous_name,
          parts = excluded.parts, findings = excluded.findings, decided_at = excluded.decided_at,
          decided_by = excluded.decided_by`),
      remove: database.prepare('DELETE FROM tool_trust WHERE server = ? AND tool = ? AND digest = ?'),
      removeTool: database.prepare('DELETE FROM tool_trust WHERE server = ? AND tool = ?'),
      summary: database.prepare(
        'SELECT server, count(*) AS records, max(decided_at) AS latest, group_concat(status) AS statuses FROM tool_trust GROUP BY server',
      ),
    };
    prepared.set(database, statements);
  }
  return statements;
}

/** The trust store on an open SQLite registry store (`open` resolves with its database). */
export function createSqliteTrustStore(
  open: () => Promise<Database>,
  options: SqliteTrustStoreOptions = {},
): ToolTrustStore & { close(): void } {
  const pollMs = options.pollMs ?? 1000;
  const listeners = new Set<ToolTrustChangeListener>();
  let timer: ReturnType<typeof setInterval> | undefined;
  let lastVersion: number | undefined;
  let lastSummary = new Map<string, string>();

  const summarize = (database: Database) =>
    new Map(
      (
        statementsOf(database).summary.all() as Array<{
          server: string;
          records: number;
          latest: string;
          statuses: string;
        }>
      ).map((row) => [row.server, `${row.records}/${row.latest}/${row.statuses}`]),
    );

  async function poll(): Promise<void> {
    const database = await open();
    const version = database.pragma('data_version', { simple: true }) as number;
    if (version === lastVersion) return;
    lastVersion = version;
    const summary = summarize(database);
    const changed = new Set<string>();
    for (const [server, state] of summary) if (lastSummary.get(server) !== state) changed.add(server);
    for (const server of lastSummary.keys()) if (!summary.has(server)) changed.add(server);
    lastSummary = summary;
    for (const server of changed) for (const listener of listeners) listener(server);
  }

  function start(): void {
    if (timer !== undefined) return;
    // The baseline, so that only later changes are announced.
    open()
      .then((database) => {
        lastVersion = database.pragma('data_version', { simple: true }) as number;
        lastSummary = summarize(database);
      })
      .catch(() => undefined);
    timer = setInterval(() => {
      poll().catch(() => undefined);
    }, pollMs);
    timer.unref?.();
  }

  function stop(): void {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  }

  return {
    specificationVersion: 'v1',
    async listTrust(filter = {}) {
      const statements = statementsOf(await open());
      const rows = (
        filter.server === undefined ? statements.select.all() : statements.selectServer.all(filter.server)
      ) as TrustRow[];
      return rows.map(fromTrustRow);
    },
    async putTrust(records) {
      const database = await open();
      const { upsert } = statementsOf(database);
      database.transaction(() => {
        for (const record of records) upsert.run(toTrustRow(record));
      })();
    },
    async removeTrust(keys) {
      const database = await open();
      const { remove, removeTool } = statementsOf(database);
      database.transaction(() => {
        for (const key of keys) {
          if (key.digest === undefined) removeTool.run(key.server, key.tool);
          else remove.run(key.server, key.tool, key.digest);
        }
      })();
    },
    onTrustChange(listener) {
      listeners.add(listener);
      start();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) stop();
      };
    },
    close: stop,
  };
}
