/**
 * The registry store on PostgreSQL, for several gateway replicas sharing one database. What the
 * SQLite store does for processes sharing a file, done for machines: usage is counted in SQL
 * (`calls = calls + 1` in one statement, so no writer loses a call), the schema is migrated once
 * however many replicas start together, and a catalogue change made by one replica is announced to
 * the others (LISTEN/NOTIFY). The same store keeps the replicas' shared OAuth sign-ins (encrypted)
 * and the tool selector's embeddings.
 *
 * `pg` is an optional peer dependency loaded on first use: the client's root entry never needs it.
 */

import { randomUUID } from 'node:crypto';
import {
  type EmbeddingStore,
  type Logger,
  type RegistryStore,
  type StoredConnectResult,
  type StoredServer,
  type StoredTool,
  type StoredToolInput,
  silentLogger,
  type ToolCallRecord,
  type ToolKind,
  type ToolTrustStore,
  type ToolUsage,
} from '@switchboard/core';
import type { TokenStore } from '@switchboard/transports';
import { hashValue } from '../store-hash.js';
import {
  type ChangeFeed,
  changeChannel,
  createChangeFeed,
  type RegistryChange,
  type RegistryChangeListener,
} from './postgres-change-feed.js';
import {
  openDatabase,
  type PostgresDatabase,
  type PostgresPool,
  type PostgresPoolClient,
  resolveTarget,
} from './postgres-connection.js';
import { createPostgresEmbeddingStore } from './postgres-embedding-store.js';
import { migratePostgresStore, quoteSchema } from './postgres-migrations.js';
import { PostgresStoreErrorCode, postgresStoreError } from './postgres-store-error.js';
import { createPostgresTokenStore } from './postgres-token-store.js';
import { createPostgresTrustStore } from './postgres-trust-store.js';
import { createRecordCipher } from './record-cipher.js';

/** Options of {@link createPostgresStore}. Give `connectionString` or `pool`. */
export interface PostgresStoreOptions {
  /** `postgres://user:password@host:5432/database`; the store makes (and ends) its own pool. */
  connectionString?: string;
  /** A `pg.Pool` of yours (not ended by `close()`); the change feed holds one of its connections while listened to. */
  pool?: PostgresPool;
  /** Schema of the store's tables, created when missing. Replicas that share data share it. @default 'switchboard' */
  schema?: string;
  /**
   * Key of the OAuth records (AES-256-GCM): 32 bytes, or a passphrase of at least 16 characters.
   * The same on every replica. Without it `tokenStore` refuses to store a record. @default none
   */
  encryptionKey?: string | Uint8Array;
  /** Where warnings go (a lost change feed, an idle connection's failure). Never given a password. @default silentLogger */
  logger?: Logger;
  /** Period of the change feed's catch-up read, for changes whose notification was missed; 0: only after a reconnect. @default 30000 */
  changePollMs?: number;
  /** Most recent calls per tool the latency percentiles cover. @default 100 */
  latencyWindow?: number;
  /** How long connecting may take (own pool only). @default 10000 */
  connectTimeoutMs?: number;
  /** Connections of the own pool. @default 10 */
  maxConnections?: number;
}

/** The PostgreSQL registry store: a `RegistryStore` v1, plus what replicas share. */
export interface PostgresRegistryStore extends RegistryStore {
  /** The schema the tables are in. */
  readonly schema: string;
  /** Resolves once the database is reachable and migrated; rejects with the reason it is not. */
  ready(): Promise<void>;
  /** Checks that the database answers (a readiness probe); rejects with a `STORE_*` error. */
  ping(): Promise<void>;
  /**
   * Calls `listener` when a server's record or tool list changes, on this or another store instance
   * on the same schema (within about a second). Returns the unsubscribe function.
   */
  onChange(listener: RegistryChangeListener): () => void;
  /** The transports' `TokenStore` v1 on this database: OAuth records, encrypted with `encryptionKey`. */
  readonly tokenStore: TokenStore;
  /** Core's `EmbeddingStore` v1 on this database (for `createToolSelector({ embeddingStore })`). */
  readonly embeddingStore: EmbeddingStore;
  /** Core's `ToolTrustStore` v1 on this database: pinned tool definitions and quarantine, shared by replicas. */
  readonly trustStore: ToolTrustStore;
  /** Ends the change feed and the own pool (idempotent). */
  close(): Promise<void>;
}

/**
 * A PostgreSQL registry store. It connects on first use (or on `ready()`), so creating it throws
 * only for options that cannot work (no connection string, a malformed one, a bad schema name or
 * key); an unreachable database rejects each call with a `STORE_UNAVAILABLE` error naming it, and
 * the next call tries again.
 */
export function createPostgresStore(options: PostgresStoreOptions): PostgresRegistryStore {
  return new DefaultPostgresStore(options);
}

/** Creates a PostgreSQL store and waits until it is migrated, so a bad database fails here. */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<PostgresRegistryStore> {
  const store = createPostgresStore(options);
  try {
    await store.ready();
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

interface ServerRow {
  name: string;
  config_hash: string;
  transport: string;
  last_connect_at: Date | string | null;
  last_connect_ok: boolean | null;
  last_error_code: string | null;
  last_error_message: string | null;
  server_name: string | null;
  server_version: string | null;
}

class DefaultPostgresStore implements PostgresRegistryStore {
  readonly specificationVersion = 'v1' as const;
  readonly location: string;
  readonly schema: string;
  readonly tokenStore: TokenStore;
  readonly embeddingStore: EmbeddingStore;
  readonly trustStore: ToolTrustStore;
  readonly #options: PostgresStoreOptions;
  readonly #quoted: string;
  readonly #latencyWindow: number;
  readonly #logger: Logger;
  readonly #channel: string;
  readonly #origin = randomUUID();
  readonly #feed: ChangeFeed;
  #opening: Promise<PostgresDatabase> | undefined;
  #closed = false;

  constructor(options: PostgresStoreOptions) {
    this.#options = options;
    this.schema = options.schema ?? 'switchboard';
    this.location = resolveTarget({ ...options, schema: this.schema }).location;
    this.#quoted = quoteSchema(this.schema);
    this.#latencyWindow = Math.max(1, Math.floor(options.latencyWindow ?? 100));
    this.#logger = options.logger ?? silentLogger;
    this.#channel = changeChannel(this.schema);
    const cipher =
      options.encryptionKey === undefined
        ? undefined
        : createRecordCipher(options.encryptionKey, this.location);
    const database = () => this.#open();
    this.tokenStore = createPostgresTokenStore({
      database,
      schema: this.#quoted,
      cipher,
      location: this.location,
      logger: this.#logger,
    });
    this.embeddingStore = createPostgresEmbeddingStore(database, this.#quoted);
    this.trustStore = createPostgresTrustStore({
      database,
      schema: this.#quoted,
      announce: (client, server) => this.#announce(client, server, 'trust'),
      settled: () => this.#feed.settled(),
      subscribe: (listener) => this.#feed.subscribe(listener),
    });
    this.#feed = createChangeFeed({
      database,
      schema: this.#quoted,
      channel: this.#channel,
      origin: this.#origin,
      pollMs: Math.max(0, options.changePollMs ?? 30_000),
      logger: this.#logger,
      location: this.location,
    });
  }

  #open(): Promise<PostgresDatabase> {
    if (this.#closed) {
      return Promise.reject(
        postgresStoreError({
          code: PostgresStoreErrorCode.Unavailable,
          message: `PostgreSQL registry store ${this.location} was closed; create a new store to use it again.`,
          location: this.location,
        }),
      );
    }
    // A failed open is forgotten, so the next call tries again: a replica started while its database
    // was down recovers (its readiness probe turns green) once the database is back.
    this.#opening ??= this.#connect().catch((error: unknown) => {
      this.#opening = undefined;
      throw error;
    });
    return this.#opening;
  }

  async #connect(): Promise<PostgresDatabase> {
    const database = await openDatabase({
      connectionString: this.#options.connectionString,
      pool: this.#options.pool,
      schema: this.schema,
      connectTimeoutMs: this.#options.connectTimeoutMs ?? 10_000,
      maxConnections: this.#options.maxConnections ?? 10,
      logger: this.#logger,
    });
    try {
      await migratePostgresStore(database, this.schema);
    } catch (error) {
      await database.end().catch(() => undefined);
      throw error;
    }
    return database;
  }

  async ready(): Promise<void> {
    await this.#open();
  }

  async ping(): Promise<void> {
    const database = await this.#open();
    await database.query('SELECT 1');
  }

  onChange(listener: RegistryChangeListener): () => void {
    return this.#feed.subscribe(listener);
  }

  /**
   * Bumps the server's catalogue revision and notifies, inside the writing transaction. The update
   * takes its revision after it holds the row, so a server's revisions grow in commit order: a
   * listener that saw revision r knows the change after it has a larger one.
   */
  async #announce(client: PostgresPoolClient, server: string, kind: RegistryChange['kind']): Promise<void> {
    const s = this.#quoted;
    await client.query(
      `WITH bumped AS (
         INSERT INTO ${s}.catalog_changes (server, revision, kind, origin, changed_at)
         VALUES ($1, nextval('${s}.catalog_revision'), $2, $4, now())
         ON CONFLICT (server) DO UPDATE SET
           revision = nextval('${s}.catalog_revision'),
           kind = excluded.kind, origin = excluded.origin, changed_at = excluded.changed_at
         RETURNING revision
       )
       SELECT pg_notify($3, json_build_object('server', $1::text, 'kind', $2::text, 'revision', revision, 'origin', $4::text)::text)
       FROM bumped`,
      [server, kind, this.#channel, this.#origin],
    );
  }

  async recordServer(server: Parameters<RegistryStore['recordServer']>[0]): Promise<void> {
    const database = await this.#open();
    // A listener that subscribed before this write hears of it, even while its feed is still connecting.
    await this.#feed.settled();
    const s = this.#quoted;
    const connect = server.lastConnect;
    await database.transaction(async (client) => {
      const previous = (
        await client.query(
          `SELECT config_hash, transport, server_name, server_version FROM ${s}.servers WHERE name = $1 FOR UPDATE`,
          [server.name],
        )
      ).rows[0] as
        | Pick<ServerRow, 'config_hash' | 'transport' | 'server_name' | 'server_version'>
        | undefined;
      await client.query(
        `INSERT INTO ${s}.servers (name, config_hash, transport, last_connect_at, last_connect_ok, last_error_code,
           last_error_message, server_name, server_version)
         VALUES ($1, $2, $3, $4::timestamptz, $5, $6, $7, $8, $9)
         ON CONFLICT (name) DO UPDATE SET
           config_hash = excluded.config_hash,
           transport = excluded.transport,
           last_connect_at = coalesce(excluded.last_connect_at, ${s}.servers.last_connect_at),
           last_connect_ok = CASE WHEN excluded.last_connect_at IS NULL THEN ${s}.servers.last_connect_ok ELSE excluded.last_connect_ok END,
           last_error_code = CASE WHEN excluded.last_connect_at IS NULL THEN ${s}.servers.last_error_code ELSE excluded.last_error_code END,
           last_error_message = CASE WHEN excluded.last_connect_at IS NULL THEN ${s}.servers.last_error_message ELSE excluded.last_error_message END,
           server_name = coalesce(excluded.server_name, ${s}.servers.server_name),
           server_version = coalesce(excluded.server_version, ${s}.servers.server_version)`,
        [
          server.name,
          server.configHash,
          server.transport,
          connect?.at ?? null,
          connect === undefined ? null : connect.ok,
          connect?.errorCode ?? null,
          connect?.errorMessage ?? null,
          server.serverInfo?.name ?? null,
          server.serverInfo?.version ?? null,
        ],
      );
      // A connection attempt alone is no catalogue change: replicas reconnect all the time.
      const changed =
        previous === undefined ||
        previous.config_hash !== server.configHash ||
        previous.transport !== server.transport ||
        (server.serverInfo !== undefined &&
          (previous.server_name !== server.serverInfo.name ||
            previous.server_version !== server.serverInfo.version));
      if (changed) await this.#announce(client, server.name, 'server');
    });
  }

  async recordTools(server: string, tools: StoredToolInput[]): Promise<void> {
    const database = await this.#open();
    await this.#feed.settled();
    const s = this.#quoted;
    // One row per name, the last one winning (as writing them in turn would).
    const byName = new Map<string, StoredToolInput>();
    for (const tool of tools) byName.set(tool.originalName, tool);
    const rows = [...byName.values()].map((tool) => ({
      original_name: tool.originalName,
      public_name: tool.publicName,
      ...(tool.title === undefined ? {} : { title: tool.title }),
      description: tool.description,
      input_schema: tool.inputSchema,
      schema_hash: tool.schemaHash ?? hashValue(tool.inputSchema),
      ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
      kind: tool.kind,
      document_hash: hashValue({
        publicName: tool.publicName,
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        annotations: tool.annotations,
        kind: tool.kind,
      }),
    }));
    await database.transaction(async (client) => {
      // Replicas recording the same server take turns; other servers are not held up.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${this.schema}/tools/${server}`]);
      const previous = new Map(
        (
          await client.query(`SELECT original_name, document_hash FROM ${s}.tools WHERE server = $1`, [
            server,
          ])
        ).rows.map((row) => [row.original_name as string, row.document_hash as string]),
      );
      if (rows.length > 0) {
        await client.query(
          `INSERT INTO ${s}.tools (server, original_name, public_name, title, description, input_schema, schema_hash,
             annotations, kind, document_hash, first_seen_at, last_seen_at)
           SELECT $1, t.original_name, t.public_name, t.title, t.description, t.input_schema, t.schema_hash,
             t.annotations, t.kind, t.document_hash, now(), now()
           FROM json_to_recordset($2::json) AS t(original_name text, public_name text, title text, description text,
             input_schema json, schema_hash text, annotations json, kind text, document_hash text)
           ON CONFLICT (server, original_name) DO UPDATE SET
             public_name = excluded.public_name, title = excluded.title, description = excluded.description,
             input_schema = excluded.input_schema, schema_hash = excluded.schema_hash,
             annotations = excluded.annotations, kind = excluded.kind, document_hash = excluded.document_hash,
             last_seen_at = excluded.last_seen_at`,
          [server, JSON.stringify(rows)],
        );
      }
      const dropped = await client.query(
        `DELETE FROM ${s}.tools WHERE server = $1 AND NOT (original_name = ANY($2::text[]))`,
        [server, rows.map((row) => row.original_name)],
      );
      const changed =
        (dropped.rowCount ?? 0) > 0 ||
        rows.some((row) => previous.get(row.original_name) !== row.document_hash);
      if (changed) await this.#announce(client, server, 'tools');
    });
  }

  async recordCall(call: ToolCallRecord): Promise<void> {
    const database = await this.#open();
    const s = this.#quoted;
    // One statement: the count first (its row lock orders concurrent writers of one tool), then
    // the sample, then the trim to the newest `latencyWindow` samples (the new one is not yet
    // visible to the trim, hence the window minus one).
    await database.query(
      `WITH counted AS (
         INSERT INTO ${s}.tool_usage (server, tool, public_name, calls, errors, last_used_at)
         VALUES ($1, $2, $3, 1, $4, $5::timestamptz)
         ON CONFLICT (server, tool) DO UPDATE SET
           calls = ${s}.tool_usage.calls + 1,
           errors = ${s}.tool_usage.errors + excluded.errors,
           public_name = excluded.public_name,
           last_used_at = greatest(${s}.tool_usage.last_used_at, excluded.last_used_at)
         RETURNING 1 AS counted
       ), sampled AS (
         INSERT INTO ${s}.tool_latency (server, tool, duration_ms)
         SELECT $1, $2, $6 FROM counted
         RETURNING id
       )
       DELETE FROM ${s}.tool_latency
       WHERE server = $1 AND tool = $2 AND EXISTS (SELECT 1 FROM sampled) AND id <= (
         SELECT id FROM ${s}.tool_latency WHERE server = $1 AND tool = $2
         ORDER BY id DESC OFFSET $7 LIMIT 1)`,
      [
        call.server,
        call.tool,
        call.publicName,
        call.ok ? 0 : 1,
        call.at ?? new Date().toISOString(),
        call.durationMs,
        this.#latencyWindow - 1,
      ],
    );
  }

  async listServers(): Promise<StoredServer[]> {
    const database = await this.#open();
    const result = await database.query(`SELECT * FROM ${this.#quoted}.servers ORDER BY name`);
    return (result.rows as unknown as ServerRow[]).map(toStoredServer);
  }

  async listTools(filter: { server?: string } = {}): Promise<StoredTool[]> {
    const database = await this.#open();
    const s = this.#quoted;
    const result =
      filter.server === undefined
        ? await database.query(`SELECT * FROM ${s}.tools ORDER BY server, original_name`)
        : await database.query(`SELECT * FROM ${s}.tools WHERE server = $1 ORDER BY original_name`, [
            filter.server,
          ]);
    return result.rows.map(toStoredTool);
  }

  async listUsage(filter: { server?: string } = {}): Promise<ToolUsage[]> {
    const database = await this.#open();
    const s = this.#quoted;
    const where = filter.server === undefined ? '' : 'WHERE u.server = $2';
    // Percentiles of the newest window only, whatever the trim has not yet removed. percentile_disc
    // is the nearest rank, as the SQLite store computes it.
    const result = await database.query(
      `SELECT u.server, u.tool, u.public_name, u.calls, u.errors, u.last_used_at,
         l.samples, l.p50, l.p95
       FROM ${s}.tool_usage u
       LEFT JOIN LATERAL (
         SELECT count(*) AS samples,
           percentile_disc(0.5) WITHIN GROUP (ORDER BY duration_ms) AS p50,
           percentile_disc(0.95) WITHIN GROUP (ORDER BY duration_ms) AS p95
         FROM (SELECT duration_ms FROM ${s}.tool_latency
               WHERE server = u.server AND tool = u.tool ORDER BY id DESC LIMIT $1) recent
       ) l ON true
       ${where}
       ORDER BY u.calls DESC, u.last_used_at DESC NULLS LAST, u.server, u.tool`,
      filter.server === undefined ? [this.#latencyWindow] : [this.#latencyWindow, filter.server],
    );
    return result.rows.map(toToolUsage);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#feed.close();
    const pending = this.#opening;
    if (!pending) return;
    try {
      await (await pending).end();
    } catch {
      // It never opened: nothing to end.
    }
  }
}

function toIso(value: unknown): string {
  return value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString();
}

function toStoredServer(row: ServerRow): StoredServer {
  const server: StoredServer = { name: row.name, configHash: row.config_hash, transport: row.transport };
  if (row.last_connect_at !== null) {
    const lastConnect: StoredConnectResult = {
      ok: row.last_connect_ok === true,
      at: toIso(row.last_connect_at),
    };
    if (row.last_error_code !== null) lastConnect.errorCode = row.last_error_code;
    if (row.last_error_message !== null) lastConnect.errorMessage = row.last_error_message;
    server.lastConnect = lastConnect;
  }
  if (row.server_name !== null)
    server.serverInfo = { name: row.server_name, version: row.server_version ?? '' };
  return server;
}

/** A json column as a value: parsed by pg's default type parser, or text from a pool that turned it off. */
function jsonValue(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}

function toStoredTool(row: Record<string, unknown>): StoredTool {
  const tool: StoredTool = {
    server: row.server as string,
    originalName: row.original_name as string,
    publicName: row.public_name as string,
    description: row.description as string,
    inputSchema: jsonValue(row.input_schema) as StoredTool['inputSchema'],
    schemaHash: row.schema_hash as string,
    kind: row.kind as ToolKind,
    firstSeenAt: toIso(row.first_seen_at),
    lastSeenAt: toIso(row.last_seen_at),
  };
  if (row.title !== null) tool.title = row.title as string;
  if (row.annotations !== null)
    tool.annotations = jsonValue(row.annotations) as NonNullable<StoredTool['annotations']>;
  return tool;
}

function toToolUsage(row: Record<string, unknown>): ToolUsage {
  const samples = Number(row.samples ?? 0);
  const usage: ToolUsage = {
    server: row.server as string,
    tool: row.tool as string,
    publicName: row.public_name as string,
    calls: Number(row.calls),
    errors: Number(row.errors),
    latencySamples: samples,
  };
  if (row.last_used_at !== null) usage.lastUsedAt = toIso(row.last_used_at);
  if (samples > 0) {
    usage.latencyP50Ms = Number(row.p50);
    usage.latencyP95Ms = Number(row.p95);
  }
  return usage;
}
