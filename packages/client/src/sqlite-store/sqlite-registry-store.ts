/**
 * The registry store on a SQLite file (better-sqlite3). Several processes may share one file:
 * WAL lets readers and one writer proceed together, the busy timeout makes a second writer wait
 * instead of failing, and counters are incremented in SQL (`calls = calls + 1`), never read,
 * changed and written back, so no call is lost between two processes.
 *
 * better-sqlite3 is an optional peer dependency loaded on first use: installing the client alone
 * never needs a native build.
 */

import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  describeNativeAddonFailure,
  type RegistryStore,
  type StoredConnectResult,
  type StoredServer,
  type StoredTool,
  type StoredToolInput,
  SwitchboardError,
  type ToolCallRecord,
  type ToolKind,
  type ToolTrustStore,
  type ToolUsage,
} from '@switchboard/core';
import type BetterSqlite3 from 'better-sqlite3';
import { hashValue } from '../store-hash.js';
import { createSqliteTrustStore } from './sqlite-trust-store.js';
import { migrateStore } from './store-migrations.js';

type Database = BetterSqlite3.Database;

/** Options of {@link createSqliteStore}. */
export interface SqliteStoreOptions {
  /** Database file; `':memory:'` keeps everything in memory (tests). @default {@link defaultStorePath} */
  path?: string;
  /** Most recent calls per tool the latency percentiles cover. @default 100 */
  latencyWindow?: number;
  /** How long a write waits for another process holding the lock. @default 5000 */
  busyTimeoutMs?: number;
  /** How often `trustStore` looks for another process's trust decisions while a connection listens. @default 1000 */
  trustPollMs?: number;
}

/** The SQLite registry store. */
export interface SqliteRegistryStore extends RegistryStore {
  /** Resolves once the file is open and migrated; rejects with the reason it cannot be. */
  ready(): Promise<void>;
  /** Core's `ToolTrustStore` v1 on this file: pinned tool definitions and quarantine. */
  readonly trustStore: ToolTrustStore;
}

/** Where the store lives unless told otherwise: `~/.switchboard/registry.db` (`SWITCHBOARD_HOME` stands in for `~`). */
export function defaultStorePath(home: string = process.env.SWITCHBOARD_HOME ?? homedir()): string {
  return join(home, '.switchboard', 'registry.db');
}

/**
 * Error codes of the SQLite store. `STORE_DRIVER_UNLOADABLE`: better-sqlite3 is installed but its
 * native addon cannot be loaded by this Node.js (built for another Node version, or never built);
 * the message names the rebuild command, the context says which (`kind`, `addonAbi`, `nodeAbi`).
 */
export type SqliteStoreErrorCode =
  | 'STORE_DEPENDENCY_MISSING'
  | 'STORE_DRIVER_UNLOADABLE'
  | 'STORE_CORRUPT'
  | 'STORE_UNAVAILABLE';

/**
 * A SQLite registry store. The file opens on first use (or on `ready()`), so creating the store
 * never throws; an unusable file rejects every method with a `STORE_*` error that names the path.
 */
export function createSqliteStore(options: SqliteStoreOptions = {}): SqliteRegistryStore {
  const location = options.path === undefined ? defaultStorePath() : options.path;
  const latencyWindow = Math.max(1, Math.floor(options.latencyWindow ?? 100));
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  let opening: Promise<Statements> | undefined;
  let closed = false;

  const open = (): Promise<Statements> => {
    if (closed) return Promise.reject(closedError(location));
    opening ??= openDatabase(location, busyTimeoutMs).then((database) => prepare(database, latencyWindow));
    return opening;
  };

  const trustStore = createSqliteTrustStore(
    () => open().then((statements) => statements.database),
    options.trustPollMs === undefined ? {} : { pollMs: options.trustPollMs },
  );

  return {
    specificationVersion: 'v1',
    location,
    trustStore,
    async ready() {
      await open();
    },
    async recordServer(server) {
      const statements = await open();
      const connect = server.lastConnect;
      statements.upsertServer.run({
        name: server.name,
        configHash: server.configHash,
        transport: server.transport,
        connectAt: connect?.at ?? null,
        connectOk: connect === undefined ? null : connect.ok ? 1 : 0,
        errorCode: connect?.errorCode ?? null,
        errorMessage: connect?.errorMessage ?? null,
        infoName: server.serverInfo?.name ?? null,
        infoVersion: server.serverInfo?.version ?? null,
      });
    },
    async recordTools(server, tools) {
      const statements = await open();
      statements.replaceTools(server, tools, new Date().toISOString());
    },
    async recordCall(call) {
      const statements = await open();
      statements.recordCall(call);
    },
    async listServers() {
      const statements = await open();
      return (statements.selectServers.all() as ServerRow[]).map(toStoredServer);
    },
    async listTools(filter = {}) {
      const statements = await open();
      const rows = (
        filter.server === undefined
          ? statements.selectTools.all()
          : statements.selectServerTools.all(filter.server)
      ) as ToolRow[];
      return rows.map(toStoredTool);
    },
    async listUsage(filter = {}) {
      const statements = await open();
      return statements.listUsage(filter.server);
    },
    async close() {
      if (closed) return;
      closed = true;
      trustStore.close();
      const pending = opening;
      if (!pending) return;
      try {
        (await pending).database.close();
      } catch {
        // It never opened: nothing to close.
      }
    },
  };
}

/** Creates a SQLite store and waits until it is open, so a bad path or file fails here. */
export async function openSqliteStore(options: SqliteStoreOptions = {}): Promise<SqliteRegistryStore> {
  const store = createSqliteStore(options);
  await store.ready();
  return store;
}

async function loadDriver(): Promise<typeof BetterSqlite3> {
  try {
    const module = (await import('better-sqlite3')) as { default: typeof BetterSqlite3 };
    return module.default;
  } catch (error) {
    throw new SwitchboardError({
      code: 'STORE_DEPENDENCY_MISSING',
      message:
        'The SQLite registry store needs the better-sqlite3 package, which could not be loaded: install better-sqlite3@12 to use the SQLite store (version 13 needs Node 22).',
      context: { package: 'better-sqlite3' },
      cause: error,
    });
  }
}

async function openDatabase(location: string, busyTimeoutMs: number): Promise<Database> {
  const Driver = await loadDriver();
  const inMemory = location === ':memory:';
  const path = inMemory ? location : resolve(location);
  const deadline = Date.now() + busyTimeoutMs;
  for (let attempt = 1; ; attempt++) {
    let database: Database | undefined;
    try {
      if (!inMemory) mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      database = new Driver(path, { timeout: busyTimeoutMs });
      database.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
      if (!inMemory) database.pragma('journal_mode = WAL');
      database.pragma('synchronous = NORMAL');
      migrateStore(database, path);
      return database;
    } catch (error) {
      try {
        database?.close();
      } catch {
        // Closing a half-open handle can fail too; the open error is the one to report.
      }
      // Two processes opening a new file at once: switching it to WAL needs a lock SQLite does
      // not wait for (its busy handler is skipped there to avoid a deadlock), so it answers
      // SQLITE_BUSY at once. The other process is done in milliseconds: open again, within the
      // busy timeout.
      if ((error as { code?: unknown }).code === 'SQLITE_BUSY' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(200, 10 * attempt + Math.random() * 20)));
        continue;
      }
      throw openError(error, path);
    }
  }
}

/** Where better-sqlite3 is installed (for the rebuild advice); undefined where it cannot be told. */
function driverFolder(): string | undefined {
  try {
    const entry = fileURLToPath(import.meta.resolve('better-sqlite3'));
    const marker = `${sep}node_modules${sep}better-sqlite3${sep}`;
    const at = entry.lastIndexOf(marker);
    return at === -1 ? dirname(entry) : entry.slice(0, at + marker.length - 1);
  } catch {
    return undefined;
  }
}

function openError(error: unknown, path: string): SwitchboardError {
  if (SwitchboardError.isInstance(error)) return error;
  // The driver loads its native addon when the first database opens: a build for another Node
  // fails here, and that, not the file, is what the user must fix.
  const installedAt = driverFolder();
  const addon = describeNativeAddonFailure(error, 'better-sqlite3', installedAt ? { installedAt } : {});
  if (addon !== undefined) {
    return new SwitchboardError({
      code: 'STORE_DRIVER_UNLOADABLE',
      message: `Registry store "${path}" cannot be opened: ${addon.message}`,
      context: {
        path,
        package: addon.package,
        kind: addon.kind,
        rebuild: addon.rebuild,
        ...(addon.addonAbi !== undefined ? { addonAbi: addon.addonAbi } : {}),
        ...(addon.nodeAbi !== undefined ? { nodeAbi: addon.nodeAbi } : {}),
      },
      cause: error,
    });
  }
  const code = (error as { code?: unknown }).code;
  const reason = error instanceof Error ? error.message : String(error);
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
    return new SwitchboardError({
      code: 'STORE_CORRUPT',
      message: `Registry store "${path}" is not a usable SQLite database (${reason}). Move the file aside or delete it and Switchboard starts a new one, or pass another path.`,
      context: { path, sqliteCode: code },
      cause: error,
    });
  }
  return new SwitchboardError({
    code: 'STORE_UNAVAILABLE',
    message: `Registry store "${path}" cannot be opened for writing (${reason}). Check that its folder can be created and written, or pass another path.`,
    context: { path, ...(typeof code === 'string' ? { errorCode: code } : {}) },
    cause: error,
  });
}

function closedError(location: string): SwitchboardError {
  return new SwitchboardError({
    code: 'STORE_UNAVAILABLE',
    message: `Registry store "${location}" was closed; create a new store to use it again.`,
    context: { path: location },
  });
}

interface ServerRow {
  name: string;
  config_hash: string;
  transport: string;
  last_connect_at: string | null;
  last_connect_ok: number | null;
  last_error_code: string | null;
  last_error_message: string | null;
  server_name: string | null;
  server_version: string | null;
}

interface ToolRow {
  server: string;
  original_name: string;
  public_name: string;
  title: string | null;
  description: string;
  input_schema: string;
  schema_hash: string;
  annotations: string | null;
  kind: string;
  first_seen_at: string;
  last_seen_at: string;
}

interface UsageRow {
  server: string;
  tool: string;
  public_name: string;
  calls: number;
  errors: number;
  last_used_at: string | null;
}

interface Statements {
  database: Database;
  upsertServer: BetterSqlite3.Statement;
  selectServers: BetterSqlite3.Statement;
  selectTools: BetterSqlite3.Statement;
  selectServerTools: BetterSqlite3.Statement;
  replaceTools(server: string, tools: StoredToolInput[], now: string): void;
  recordCall(call: ToolCallRecord): void;
  listUsage(server: string | undefined): ToolUsage[];
}

function prepare(database: Database, latencyWindow: number): Statements {
  const upsertServer = database.prepare(`
    INSERT INTO servers (name, config_hash, transport, last_connect_at, last_connect_ok, last_error_code,
      last_error_message, server_name, server_version)
    VALUES (@name, @configHash, @transport, @connectAt, @connectOk, @errorCode, @errorMessage, @infoName, @infoVersion)
    ON CONFLICT (name) DO UPDATE SET
      config_hash = excluded.config_hash,
      transport = excluded.transport,
      last_connect_at = coalesce(excluded.last_connect_at, last_connect_at),
      last_connect_ok = CASE WHEN excluded.last_connect_at IS NULL THEN last_connect_ok ELSE excluded.last_connect_ok END,
      last_error_code = CASE WHEN excluded.last_connect_at IS NULL THEN last_error_code ELSE excluded.last_error_code END,
      last_error_message = CASE WHEN excluded.last_connect_at IS NULL THEN last_error_message ELSE excluded.last_error_message END,
      server_name = coalesce(excluded.server_name, server_name),
      server_version = coalesce(excluded.server_version, server_version)`);
  const upsertTool = database.prepare(`
    INSERT INTO tools (server, original_name, public_name, title, description, input_schema, schema_hash,
      annotations, kind, first_seen_at, last_seen_at)
    VALUES (@server, @originalName, @publicName, @title, @description, @inputSchema, @schemaHash,
      @annotations, @kind, @now, @now)
    ON CONFLICT (server, original_name) DO UPDATE SET
      public_name = excluded.public_name, title = excluded.title, description = excluded.description,
      input_schema = excluded.input_schema, schema_hash = excluded.schema_hash,
      annotations = excluded.annotations, kind = excluded.kind, last_seen_at = excluded.last_seen_at`);
  const dropMissingTools = database.prepare(
    'DELETE FROM tools WHERE server = ? AND original_name NOT IN (SELECT value FROM json_each(?))',
  );
  const countCall = database.prepare(`
    INSERT INTO tool_usage (server, tool, public_name, calls, errors, last_used_at)
    VALUES (@server, @tool, @publicName, 1, @error, @at)
    ON CONFLICT (server, tool) DO UPDATE SET
      calls = calls + 1,
      errors = errors + excluded.errors,
      public_name = excluded.public_name,
      last_used_at = max(coalesce(last_used_at, ''), excluded.last_used_at)`);
  const addLatency = database.prepare(
    'INSERT INTO tool_latency (server, tool, duration_ms) VALUES (@server, @tool, @durationMs)',
  );
  // Keeps the newest `latencyWindow` samples of the tool; older ones no longer count.
  const trimLatency = database.prepare(`
    DELETE FROM tool_latency WHERE server = @server AND tool = @tool AND id <= (
      SELECT id FROM tool_latency WHERE server = @server AND tool = @tool
      ORDER BY id DESC LIMIT 1 OFFSET ${latencyWindow})`);
  const selectUsage = database.prepare(
    'SELECT * FROM tool_usage ORDER BY calls DESC, last_used_at DESC, server, tool',
  );
  const selectServerUsage = database.prepare(
    'SELECT * FROM tool_usage WHERE server = ? ORDER BY calls DESC, last_used_at DESC, tool',
  );
  const selectLatency = database.prepare('SELECT server, tool, duration_ms FROM tool_latency');
  const selectServerLatency = database.prepare(
    'SELECT server, tool, duration_ms FROM tool_latency WHERE server = ?',
  );

  const replaceTools = database.transaction((server: string, tools: StoredToolInput[], now: string) => {
    for (const tool of tools) {
      upsertTool.run({
        server,
        originalName: tool.originalName,
        publicName: tool.publicName,
        title: tool.title ?? null,
        description: tool.description,
        inputSchema: JSON.stringify(tool.inputSchema),
        schemaHash: tool.schemaHash ?? hashValue(tool.inputSchema),
        annotations: tool.annotations === undefined ? null : JSON.stringify(tool.annotations),
        kind: tool.kind,
        now,
      });
    }
    dropMissingTools.run(server, JSON.stringify(tools.map((tool) => tool.originalName)));
  });
  const recordCall = database.transaction((call: ToolCallRecord) => {
    const key = { server: call.server, tool: call.tool };
    countCall.run({
      ...key,
      publicName: call.publicName,
      error: call.ok ? 0 : 1,
      at: call.at ?? new Date().toISOString(),
    });
    addLatency.run({ ...key, durationMs: call.durationMs });
    trimLatency.run(key);
  });

  return {
    database,
    upsertServer,
    selectServers: database.prepare('SELECT * FROM servers ORDER BY name'),
    selectTools: database.prepare('SELECT * FROM tools ORDER BY server, original_name'),
    selectServerTools: database.prepare('SELECT * FROM tools WHERE server = ? ORDER BY original_name'),
    // IMMEDIATE takes the write lock up front, so two writers queue on the busy timeout instead of
    // one of them failing when it upgrades a read lock.
    replaceTools: (server, tools, now) => replaceTools.immediate(server, tools, now),
    recordCall: (call) => recordCall.immediate(call),
    listUsage(server) {
      const usage = (server === undefined ? selectUsage.all() : selectServerUsage.all(server)) as UsageRow[];
      const samples = new Map<string, number[]>();
      const latencyRows = (
        server === undefined ? selectLatency.all() : selectServerLatency.all(server)
      ) as Array<{ server: string; tool: string; duration_ms: number }>;
      for (const row of latencyRows) {
        const key = `${row.server}\u0000${row.tool}`;
        const list = samples.get(key);
        if (list) list.push(row.duration_ms);
        else samples.set(key, [row.duration_ms]);
      }
      return usage.map((row) => toToolUsage(row, samples.get(`${row.server}\u0000${row.tool}`) ?? []));
    },
  };
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: number[], fraction: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[index] ?? 0;
}

function toToolUsage(row: UsageRow, samples: number[]): ToolUsage {
  const usage: ToolUsage = {
    server: row.server,
    tool: row.tool,
    publicName: row.public_name,
    calls: row.calls,
    errors: row.errors,
    latencySamples: samples.length,
  };
  if (row.last_used_at) usage.lastUsedAt = row.last_used_at;
  if (samples.length > 0) {
    const sorted = [...samples].sort((left, right) => left - right);
    usage.latencyP50Ms = percentile(sorted, 0.5);
    usage.latencyP95Ms = percentile(sorted, 0.95);
  }
  return usage;
}

function toStoredServer(row: ServerRow): StoredServer {
  const server: StoredServer = { name: row.name, configHash: row.config_hash, transport: row.transport };
  if (row.last_connect_at !== null) {
    const lastConnect: StoredConnectResult = { ok: row.last_connect_ok === 1, at: row.last_connect_at };
    if (row.last_error_code !== null) lastConnect.errorCode = row.last_error_code;
    if (row.last_error_message !== null) lastConnect.errorMessage = row.last_error_message;
    server.lastConnect = lastConnect;
  }
  if (row.server_name !== null) {
    server.serverInfo = { name: row.server_name, version: row.server_version ?? '' };
  }
  return server;
}

function toStoredTool(row: ToolRow): StoredTool {
  const tool: StoredTool = {
    server: row.server,
    originalName: row.original_name,
    publicName: row.public_name,
    description: row.description,
    inputSchema: JSON.parse(row.input_schema) as StoredTool['inputSchema'],
    schemaHash: row.schema_hash,
    kind: row.kind as ToolKind,
    firstSeenAt: row.first_seen_at,
    lastSeenAt: row.last_seen_at,
  };
  if (row.title !== null) tool.title = row.title;
  if (row.annotations !== null)
    tool.annotations = JSON.parse(row.annotations) as NonNullable<StoredTool['annotations']>;
  return tool;
}
