/**
 * How the PostgreSQL store reaches its database: the optional peer `pg` loaded on first use, the
 * options checked, the pool (its own, or the caller's), the dedicated connection of the change feed,
 * and the one translation of a driver error into a store error that says what to do. The password
 * is kept only inside the driver's configuration: `location` is the URL without it.
 */

import { type Logger, SwitchboardError } from '@switchboard/core';
import {
  PostgresStoreErrorCode,
  postgresStoreError,
  reasonOf,
  redactSecret,
} from './postgres-store-error.js';

/** One query's answer, as much of it as the store reads. */
export interface PostgresQueryResult {
  rows: Array<Record<string, unknown>>;
  rowCount: number | null;
}

/** A notification delivered to a listening connection. */
export interface PostgresNotification {
  channel: string;
  payload?: string | undefined;
}

/**
 * A connection taken from a pool, as much of `pg.PoolClient` as the store uses (written out so the
 * published types never name `pg`, an optional peer whose types a user may not have).
 */
export interface PostgresPoolClient {
  query(text: string, values?: unknown[]): Promise<PostgresQueryResult>;
  release(destroy?: Error | boolean): void;
  on(event: 'notification', listener: (message: PostgresNotification) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
}

/** A connection pool, as much of `pg.Pool` as the store uses: pass a `new pg.Pool(...)`. */
export interface PostgresPool {
  query(text: string, values?: unknown[]): Promise<PostgresQueryResult>;
  connect(): Promise<PostgresPoolClient>;
}

/** The listening connection of the change feed. */
export interface ListeningConnection {
  query(text: string): Promise<unknown>;
  on(event: 'notification', listener: (message: PostgresNotification) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  /** Ends the connection (returns a pooled one destroyed, never to be reused). */
  close(): Promise<void>;
}

/** A database the store can use: queries, transactions, a listening connection. */
export interface PostgresDatabase {
  /** The connection URL without password, and the schema: for messages and logs. */
  readonly location: string;
  query(text: string, values?: unknown[]): Promise<PostgresQueryResult>;
  /** Runs `work` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (client: PostgresPoolClient) => Promise<T>): Promise<T>;
  /** Opens the change feed's own connection. */
  listen(): Promise<ListeningConnection>;
  /** `text` without the password (for a driver message that goes to a log). */
  redact(text: string): string;
  /** A driver error as a store error (`doing`: what was being done). */
  toStoreError(error: unknown, doing: string): Error;
  /** Ends the pool when it is the store's own. */
  end(): Promise<void>;
}

/** What opening a database needs. */
export interface DatabaseOptions {
  connectionString?: string | undefined;
  pool?: PostgresPool | undefined;
  schema: string;
  connectTimeoutMs: number;
  maxConnections: number;
  logger: Logger;
}

/** Schema names the store accepts: plain lower-case identifiers, so no quoting can go wrong. */
const schemaPattern = /^[a-z_][a-z0-9_]{0,62}$/;

interface PgModule {
  Pool: new (
    config: Record<string, unknown>,
  ) => PostgresPool & {
    end(): Promise<void>;
    on(event: 'error', listener: (error: Error) => void): unknown;
  };
  Client: new (
    config: Record<string, unknown>,
  ) => Omit<ListeningConnection, 'close'> & {
    connect(): Promise<void>;
    end(): Promise<void>;
  };
}

async function loadDriver(location: string): Promise<PgModule> {
  try {
    const module = (await import('pg')) as unknown as { default?: PgModule } & PgModule;
    return module.default ?? module;
  } catch (error) {
    throw postgresStoreError({
      code: PostgresStoreErrorCode.DependencyMissing,
      message:
        'The PostgreSQL registry store needs the pg package, which could not be loaded: install pg@8 to use @switchboard/client/postgres-store.',
      location,
      context: { package: 'pg' },
      cause: error,
    });
  }
}

/** Where a connection string points, without its password; throws when it is no postgres URL. */
export function describeConnectionString(connectionString: string): { url: string; password?: string } {
  let url: URL;
  try {
    url = new URL(connectionString);
  } catch {
    url = new URL('invalid:');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    // The string itself may hold a password: the message describes it without quoting it.
    throw postgresStoreError({
      code: PostgresStoreErrorCode.InvalidOptions,
      message:
        'createPostgresStore: connectionString is not a PostgreSQL URL. Write it as postgres://user:password@host:5432/database (percent-encode special characters in the password).',
      location: 'postgresql (invalid connection string)',
    });
  }
  const password = url.password ? decodeURIComponent(url.password) : undefined;
  const user = url.username ? `${decodeURIComponent(url.username)}@` : '';
  const described = `${url.protocol}//${user}${url.host}${url.pathname}`;
  return { url: described, ...(password === undefined ? {} : { password }) };
}

/** Checks the schema name (it is written into SQL). */
export function checkSchemaName(schema: string, location: string): string {
  if (!schemaPattern.test(schema)) {
    throw postgresStoreError({
      code: PostgresStoreErrorCode.InvalidOptions,
      message: `createPostgresStore: schema ${JSON.stringify(schema)} is not a plain identifier. Use lower-case letters, digits and underscores, starting with a letter or underscore, at most 63 characters.`,
      location,
      context: { schema },
    });
  }
  return schema;
}

/** Where a caller's pool points, from its options when it is a `pg.Pool`. */
function describePool(pool: PostgresPool): { url: string; password?: string } {
  const config = (pool as { options?: Record<string, unknown> }).options ?? {};
  if (typeof config.connectionString === 'string') {
    try {
      return describeConnectionString(config.connectionString);
    } catch {
      return { url: 'postgresql (given pool)' };
    }
  }
  const password = typeof config.password === 'string' ? config.password : undefined;
  if (typeof config.host !== 'string' && typeof config.database !== 'string') {
    return { url: 'postgresql (given pool)', ...(password === undefined ? {} : { password }) };
  }
  const user = typeof config.user === 'string' ? `${config.user}@` : '';
  const host = typeof config.host === 'string' ? config.host : 'localhost';
  const port = config.port === undefined ? '' : `:${String(config.port)}`;
  const database = typeof config.database === 'string' ? config.database : '';
  return {
    url: `postgresql://${user}${host}${port}/${database}`,
    ...(password === undefined ? {} : { password }),
  };
}

/** The location and password of the options, checked; throws on options that cannot work. */
export function resolveTarget(options: Pick<DatabaseOptions, 'connectionString' | 'pool' | 'schema'>): {
  location: string;
  password?: string;
} {
  if (options.connectionString !== undefined && options.pool !== undefined) {
    throw postgresStoreError({
      code: PostgresStoreErrorCode.InvalidOptions,
      message: 'createPostgresStore: pass connectionString or pool, not both.',
      location: 'postgresql',
    });
  }
  if (options.connectionString === undefined && options.pool === undefined) {
    throw postgresStoreError({
      code: PostgresStoreErrorCode.InvalidOptions,
      message:
        'createPostgresStore: pass connectionString (postgres://user:password@host:5432/database) or a pg Pool as pool.',
      location: 'postgresql',
    });
  }
  const target =
    options.connectionString !== undefined
      ? describeConnectionString(options.connectionString)
      : describePool(options.pool as PostgresPool);
  const location = `${target.url} (schema ${options.schema})`;
  checkSchemaName(options.schema, location);
  return { location, ...(target.password === undefined ? {} : { password: target.password }) };
}

/** Opens the database: loads `pg` (for a connection string) and makes the pool; connects lazily. */
export async function openDatabase(options: DatabaseOptions): Promise<PostgresDatabase> {
  const { location, password } = resolveTarget(options);
  const toStoreError = (error: unknown, doing: string): Error =>
    describeDriverError(error, doing, location, password, options.schema);
  let ownPool: (PostgresPool & { end(): Promise<void> }) | undefined;
  let pool: PostgresPool;
  let driver: PgModule | undefined;
  if (options.pool) pool = options.pool;
  else {
    driver = await loadDriver(location);
    const created = new driver.Pool({
      connectionString: options.connectionString,
      connectionTimeoutMillis: options.connectTimeoutMs,
      max: options.maxConnections,
      application_name: 'switchboard',
    });
    // An idle connection that dies (a restart of the server) must not crash the process.
    created.on('error', (error) => {
      options.logger.warn(
        { store: location, error: reasonOf(error, password) },
        'PostgreSQL registry store: an idle connection failed; the pool replaces it.',
      );
    });
    ownPool = created;
    pool = created;
  }

  return {
    location,
    async query(text, values) {
      try {
        return await pool.query(text, values);
      } catch (error) {
        throw toStoreError(error, 'querying');
      }
    },
    async transaction(work) {
      let client: PostgresPoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw toStoreError(error, 'connecting');
      }
      let broken = false;
      try {
        await client.query('BEGIN');
        const result = await work(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        try {
          await client.query('ROLLBACK');
        } catch {
          // The connection is gone: it is destroyed below rather than returned to the pool.
          broken = true;
        }
        throw SwitchboardError.isInstance(error) ? error : toStoreError(error, 'writing');
      } finally {
        client.release(broken);
      }
    },
    async listen() {
      if (options.connectionString !== undefined && driver) {
        const client = new driver.Client({
          connectionString: options.connectionString,
          connectionTimeoutMillis: options.connectTimeoutMs,
          application_name: 'switchboard-change-feed',
          keepAlive: true,
        });
        // Attached before connecting: a failure after it must never be an unhandled 'error'.
        client.on('error', () => {});
        try {
          await client.connect();
        } catch (error) {
          throw toStoreError(error, 'opening the change feed connection');
        }
        return Object.assign(client, { close: () => client.end().catch(() => undefined) });
      }
      let client: PostgresPoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw toStoreError(error, 'opening the change feed connection');
      }
      client.on('error', () => {});
      return {
        query: (text: string) => client.query(text),
        on: client.on.bind(client) as ListeningConnection['on'],
        async close() {
          // Destroyed, not released: a pooled connection must not keep listening for someone else.
          client.release(true);
        },
      };
    },
    redact: (text) => redactSecret(text, password),
    toStoreError,
    async end() {
      await ownPool?.end();
    },
  };
}

/** A driver (or network) error as a store error that names the database and what to do. */
export function describeDriverError(
  error: unknown,
  doing: string,
  location: string,
  password: string | undefined,
  schema: string,
): Error {
  if (SwitchboardError.isInstance(error)) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const reason = reasonOf(error, password);
  const base = `PostgreSQL registry store ${location}`;
  let advice: string;
  if (code === '28P01' || code === '28000') {
    advice =
      'The database refused the credentials: check the user and password of the connection string (or the pool).';
  } else if (code === '3D000') {
    advice = 'The database does not exist: create it, or fix the database name of the connection string.';
  } else if (code === '42501') {
    advice = `The user may not do this: grant it CREATE on the database, or create schema ${schema} beforehand and grant the user all privileges on it.`;
  } else if (
    code === 'ECONNREFUSED' ||
    code === 'ENOTFOUND' ||
    code === 'EAI_AGAIN' ||
    code === 'ETIMEDOUT' ||
    code === 'EHOSTUNREACH' ||
    /timeout|terminated/i.test(reason)
  ) {
    advice =
      'The database cannot be reached: check that PostgreSQL runs there and the host and port of the connection string.';
  } else {
    advice = "Check the database and the connection string; the reason above is PostgreSQL's.";
  }
  return postgresStoreError({
    code: PostgresStoreErrorCode.Unavailable,
    message: `${base}: failed while ${doing} (${reason}). ${advice}`,
    location,
    context: typeof code === 'string' ? { errorCode: code } : {},
    cause: error,
  });
}
