/**
 * The registry store a command records to: a SQLite file by default, or — when `--store` (or
 * `SWITCHBOARD_STORE`) is a `postgres://` URL — the PostgreSQL store that gateway replicas share
 * (usage counted in SQL, a catalogue change feed, encrypted OAuth records, embeddings).
 */
import { join } from 'node:path';
import type { TokenStore } from '@switchboard/client';
import type { PostgresRegistryStore } from '@switchboard/client/postgres-store';
import type { Logger, RegistryStore } from '@switchboard/core';
import type { CommandContext } from './cli-command.js';
import { UsageError } from './cli-error.js';
import { homeOf } from './cli-home.js';
import { createDeferredRegistryStore } from './deferred-registry-store.js';

/** The registry store commands record to and read from: `--store`, `SWITCHBOARD_STORE`, or the default file. */
export function storePathOf(context: CommandContext): string {
  const option = context.values.store;
  if (typeof option === 'string' && option !== '') return option;
  return context.io.env.SWITCHBOARD_STORE ?? join(homeOf(context), '.switchboard', 'registry.db');
}

/** A store URL rather than a file path. */
export function isPostgresLocation(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/**
 * A `postgres://` URL split into what `pg` connects with and the schema the store's tables live in
 * (`?schema=NAME`, a Switchboard parameter `pg` would not know): replicas of one deployment share a
 * schema, and separate deployments (or tests) can share a database without sharing tables.
 */
export function postgresTargetOf(location: string): { connectionString: string; schema?: string } {
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    // The location may hold a password: the message shows its shape, not its text.
    throw new UsageError(
      '--store: not a valid URL; use postgres://user:password@host:5432/database[?schema=NAME].',
    );
  }
  const schema = url.searchParams.get('schema');
  url.searchParams.delete('schema');
  return { connectionString: url.href, ...(schema !== null && schema !== '' ? { schema } : {}) };
}

/** The store of `location` (a path or a `postgres://` URL). */
export interface CliStore {
  store: RegistryStore;
  /** Set for PostgreSQL: the change feed, shared OAuth records and embeddings live there. */
  postgres?: PostgresRegistryStore;
  /** OAuth records shared through the database (PostgreSQL with `SWITCHBOARD_STORE_KEY`). */
  tokenStore?: TokenStore;
}

/**
 * Opens the store `--store` names. The PostgreSQL key of OAuth records comes from
 * `SWITCHBOARD_STORE_KEY` only (an env value, never a flag: flags end up in process lists). Each
 * store's module is imported here, for the kind asked for: a command that records to a SQLite file
 * never loads the PostgreSQL store, and one that records nothing loads neither.
 */
export async function registryStoreOf(context: CommandContext): Promise<CliStore> {
  const location = storePathOf(context);
  if (!isPostgresLocation(location)) {
    const { createSqliteStore } = await import('@switchboard/client/sqlite-store');
    return { store: createSqliteStore({ path: location }) };
  }
  const { createPostgresStore } = await import('@switchboard/client/postgres-store');
  const key = context.io.env.SWITCHBOARD_STORE_KEY;
  const postgres = createPostgresStore({
    ...postgresTargetOf(location),
    ...(key !== undefined && key !== '' ? { encryptionKey: key } : {}),
    // Replicas hear of each other's catalogue changes through LISTEN/NOTIFY; the catch-up read
    // covers a notification lost while the feed reconnected.
    changePollMs: 2_000,
  });
  return {
    store: postgres,
    postgres,
    ...(key !== undefined && key !== '' ? { tokenStore: postgres.tokenStore } : {}),
  };
}

/**
 * The store a one-shot command (`tools`, `call`, `select`) records to: a SQLite file is written as
 * the command ends, while its servers exit (see deferred-registry-store.ts), so neither the file nor
 * the driver is opened before the answer is out; the PostgreSQL store is opened now, as it may hold
 * the sign-ins the connection needs.
 */
export async function commandStoreOf(
  context: CommandContext,
  logger: Logger,
): Promise<CliStore & { flush?: () => Promise<void> }> {
  const location = storePathOf(context);
  if (isPostgresLocation(location)) return registryStoreOf(context);
  const store = createDeferredRegistryStore({
    location,
    open: async () => (await registryStoreOf(context)).store,
    logger,
  });
  return { store, flush: store.flush };
}
