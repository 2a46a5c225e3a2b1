/**
 * `@switchboard/client/sqlite-store`: the registry store on a SQLite file. Node only, and needs the
 * optional peer dependency better-sqlite3@12.
 * Any new export added here becomes public API: use named exports, not wildcards.
 */

export type {
  SqliteRegistryStore,
  SqliteStoreErrorCode,
  SqliteStoreOptions,
} from './sqlite-registry-store.js';
export { createSqliteStore, defaultStorePath, openSqliteStore } from './sqlite-registry-store.js';
export { storeSchemaVersion } from './store-migrations.js';
