/**
 * Schema of the PostgreSQL store, one migration per version, recorded in `schema_migrations`.
 * Several replicas may start at once: each migration runs in its own transaction under a
 * transaction-level advisory lock on the schema, and re-reads the version once it holds the lock,
 * so every migration runs exactly once. A database at a newer version than this code knows is
 * refused rather than written in a shape this code does not know.
 */

import { createHash } from 'node:crypto';
import type { PostgresDatabase } from './postgres-connection.js';
import { PostgresStoreErrorCode, postgresStoreError } from './postgres-store-error.js';

/** One migration: what it does, and its SQL given the quoted schema name. */
interface PostgresMigration {
  description: string;
  up(schema: string): string;
}

/** Migrations in order; index + 1 is the version each produces. Append only. */
const postgresMigrations: readonly PostgresMigration[] = [
  {
    description: 'servers, tools, usage, latency samples, catalogue revisions, OAuth records, embeddings',
    up: (s) => `
      CREATE TABLE ${s}.servers (
        name text PRIMARY KEY,
        config_hash text NOT NULL,
        transport text NOT NULL,
        last_connect_at timestamptz,
        last_connect_ok boolean,
        last_error_code text,
        last_error_message text,
        server_name text,
        server_version text
      );
      CREATE TABLE ${s}.tools (
        server text NOT NULL,
        original_name text NOT NULL,
        public_name text NOT NULL,
        title text,
        description text NOT NULL,
        -- json, not jsonb: a schema keeps its key order (the order a model sees parameters in).
        input_schema json NOT NULL,
        schema_hash text NOT NULL,
        annotations json,
        kind text NOT NULL,
        -- Hash of everything a listing shows, to tell a real change from a tool seen again.
        document_hash text NOT NULL,
        first_seen_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL,
        PRIMARY KEY (server, original_name)
      );
      CREATE TABLE ${s}.tool_usage (
        server text NOT NULL,
        tool text NOT NULL,
        public_name text NOT NULL,
        calls bigint NOT NULL DEFAULT 0,
        errors bigint NOT NULL DEFAULT 0,
        last_used_at timestamptz,
        PRIMARY KEY (server, tool)
      );
      CREATE TABLE ${s}.tool_latency (
        id bigserial PRIMARY KEY,
        server text NOT NULL,
        tool text NOT NULL,
        duration_ms double precision NOT NULL
      );
      CREATE INDEX tool_latency_by_tool ON ${s}.tool_latency (server, tool, id);
      CREATE SEQUENCE ${s}.catalog_revision;
      CREATE TABLE ${s}.catalog_changes (
        server text PRIMARY KEY,
        revision bigint NOT NULL,
        kind text NOT NULL,
        -- The store instance that made the change (to tell a replica's own changes).
        origin text NOT NULL DEFAULT '',
        changed_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE ${s}.oauth_records (
        -- A hash of the server URL: the URL itself is inside the sealed record.
        server_key text PRIMARY KEY,
        sealed bytea NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE ${s}.embeddings (
        model_key text NOT NULL,
        content_key text NOT NULL,
        dimensions integer NOT NULL,
        -- float32, little-endian.
        vector bytea NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (model_key, content_key)
      );
    `,
  },
  {
    description: 'tool trust decisions (pinned definitions, quarantine), one row per definition digest',
    up: (s) => `
      CREATE TABLE ${s}.tool_trust (
        server text NOT NULL,
        tool text NOT NULL,
        digest text NOT NULL,
        status text NOT NULL,
        definition text NOT NULL,
        change text,
        previous_digest text,
        previous_name text,
        parts text,
        findings text,
        decided_at timestamptz NOT NULL,
        decided_by text,
        PRIMARY KEY (server, tool, digest)
      );
    `,
  },
];

/** Schema version this code writes. */
export const postgresStoreSchemaVersion = postgresMigrations.length;

/** The schema name quoted for SQL (names are checked to be plain identifiers first). */
export function quoteSchema(schema: string): string {
  return `"${schema}"`;
}

/** A 64-bit advisory lock key of the schema, the same in every replica. */
function migrationLockKey(schema: string): string {
  return createHash('sha256')
    .update(`switchboard/postgres-store/migrate:${schema}`)
    .digest()
    .readBigInt64BE(0)
    .toString();
}

/** Brings `schema` up to {@link postgresStoreSchemaVersion}, one transaction per migration; resolves with the version. */
export async function migratePostgresStore(database: PostgresDatabase, schema: string): Promise<number> {
  const s = quoteSchema(schema);
  for (;;) {
    const done = await database.transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [migrationLockKey(schema)]);
      // Checked before creating: CREATE SCHEMA IF NOT EXISTS needs CREATE on the database even
      // when the schema is there, and a user may have been given only the schema.
      const exists = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
      if (exists.rowCount === 0) await client.query(`CREATE SCHEMA ${s}`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${s}.schema_migrations (
        version integer PRIMARY KEY,
        description text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
      const result = await client.query(
        `SELECT coalesce(max(version), 0)::integer AS version FROM ${s}.schema_migrations`,
      );
      const version = Number(result.rows[0]?.version ?? 0);
      if (version > postgresStoreSchemaVersion) {
        throw postgresStoreError({
          code: PostgresStoreErrorCode.SchemaTooNew,
          message: `PostgreSQL registry store ${database.location}: schema ${schema} is at version ${version}, newer than this Switchboard knows (${postgresStoreSchemaVersion}). Upgrade @switchboard/client on this replica, or pass another schema.`,
          location: database.location,
          context: { schema, version, supported: postgresStoreSchemaVersion },
        });
      }
      if (version === postgresStoreSchemaVersion) return true;
      const migration = postgresMigrations[version] as PostgresMigration;
      await client.query(migration.up(s));
      await client.query(`INSERT INTO ${s}.schema_migrations (version, description) VALUES ($1, $2)`, [
        version + 1,
        migration.description,
      ]);
      return version + 1 === postgresStoreSchemaVersion;
    });
    if (done) return postgresStoreSchemaVersion;
  }
}
