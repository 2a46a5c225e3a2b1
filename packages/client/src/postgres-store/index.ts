/**
 * `@switchboard/client/postgres-store`: the registry store on PostgreSQL, for gateway replicas
 * sharing one database (usage, catalogue change feed, encrypted OAuth records, embeddings). Node
 * only, and needs the optional peer dependency pg@8.
 * Any new export added here becomes public API: use named exports, not wildcards.
 */

export type { RegistryChange, RegistryChangeListener } from './postgres-change-feed.js';
export type {
  PostgresNotification,
  PostgresPool,
  PostgresPoolClient,
  PostgresQueryResult,
} from './postgres-connection.js';
export { postgresStoreSchemaVersion } from './postgres-migrations.js';
export type { PostgresRegistryStore, PostgresStoreOptions } from './postgres-registry-store.js';
export { createPostgresStore, openPostgresStore } from './postgres-registry-store.js';
export { PostgresStoreErrorCode } from './postgres-store-error.js';
