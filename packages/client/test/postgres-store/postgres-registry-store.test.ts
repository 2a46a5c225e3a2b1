/** The PostgreSQL store against the real database: what replicas sharing it rely on. */
import { spawnSync } from 'node:child_process';
import { type Logger, SwitchboardError } from '@switchboard/core';
import { createEventLog } from '@switchboard/test-helpers';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createPostgresStore,
  openPostgresStore,
  type PostgresRegistryStore,
  PostgresStoreErrorCode,
  type PostgresStoreOptions,
  postgresStoreSchemaVersion,
  type RegistryChange,
} from '../../src/postgres-store/index.js';
import { dropSchemas, postgresUrl, randomSchema, withClient, withPassword } from '../helpers/postgres.js';
import { fixture } from '../helpers/servers.js';

const schemas: string[] = [];
const stores: PostgresRegistryStore[] = [];
const pools: pg.Pool[] = [];

afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const pool of pools.splice(0)) await pool.end();
  await dropSchemas(schemas.splice(0));
});

function newSchema(): string {
  const schema = randomSchema();
  schemas.push(schema);
  return schema;
}

async function openStore(
  schema: string,
  options: Partial<PostgresStoreOptions> = {},
): Promise<PostgresRegistryStore> {
  const store = await openPostgresStore({ connectionString: postgresUrl, schema, ...options });
  stores.push(store);
  return store;
}

function capturingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const log = (context: unknown, message?: string) => {
    lines.push(typeof context === 'string' ? context : `${JSON.stringify(context)} ${message ?? ''}`);
  };
  return { logger: { debug: log, info: log, warn: log, error: log }, lines };
}

const tool = (name: string, description = `does ${name}`) => ({
  originalName: name,
  publicName: `files__${name}`,
  description,
  inputSchema: { type: 'object' },
  kind: 'read' as const,
});

/** Everything an error shows a user or a log: message, context, JSON, the causes' messages. */
function everythingShown(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  while (current instanceof Error) {
    parts.push(current.message, JSON.stringify(current));
    if (SwitchboardError.isInstance(current)) parts.push(JSON.stringify(current.context));
    current = current.cause;
  }
  return parts.join('\n');
}

describe('migrations', () => {
  it('replicas starting together on a new schema migrate it once', async () => {
    const schema = newSchema();
    const replicas = await Promise.all(
      Array.from({ length: 6 }, () => openPostgresStore({ connectionString: postgresUrl, schema })),
    );
    stores.push(...replicas);
    const rows = await withClient(
      async (client) =>
        (await client.query(`SELECT version FROM "${schema}".schema_migrations ORDER BY version`)).rows,
    );
    expect(rows.map((row) => row.version)).toEqual(
      Array.from({ length: postgresStoreSchemaVersion }, (_, index) => index + 1),
    );
    await Promise.all(replicas.map((replica) => replica.ping()));
  });

  it('refuses a schema migrated by a newer Switchboard, saying what to do', async () => {
    const schema = newSchema();
    await (await openStore(schema)).close();
    await withClient((client) =>
      client.query(
        `INSERT INTO "${schema}".schema_migrations (version, description) VALUES ($1, 'from the future')`,
        [postgresStoreSchemaVersion + 1],
      ),
    );
    const error = await openPostgresStore({ connectionString: postgresUrl, schema }).catch(
      (caught: unknown) => caught,
    );
    expect(SwitchboardError.hasCode(error, PostgresStoreErrorCode.SchemaTooNew)).toBe(true);
    expect((error as Error).message).toContain(
      `schema ${schema} is at version ${postgresStoreSchemaVersion + 1}`,
    );
    expect((error as Error).message).toContain('Upgrade @switchboard/client');
    expect((error as Error).message).not.toContain('switchboard:switchboard@');
  });

  it('a store that could not open tries again on the next call', async () => {
    const schema = newSchema();
    await (await openStore(schema)).close();
    const future = postgresStoreSchemaVersion + 1;
    await withClient((client) =>
      client.query(`INSERT INTO "${schema}".schema_migrations (version, description) VALUES ($1, 'future')`, [
        future,
      ]),
    );
    const store = createPostgresStore({ connectionString: postgresUrl, schema });
    stores.push(store);
    await expect(store.ping()).rejects.toMatchObject({ code: PostgresStoreErrorCode.SchemaTooNew });
    await withClient((client) =>
      client.query(`DELETE FROM "${schema}".schema_migrations WHERE version = $1`, [future]),
    );
    await store.ping();
    await store.recordTools('s', [tool('t')]);
    expect(await store.listTools()).toHaveLength(1);
  });

  it('works in a schema created beforehand', async () => {
    const schema = newSchema();
    await withClient((client) => client.query(`CREATE SCHEMA "${schema}"`));
    const store = await openStore(schema);
    await store.recordTools('s', [tool('t')]);
    expect((await store.listTools()).map((stored) => stored.originalName)).toEqual(['t']);
  });
});

describe('usage counted in SQL', () => {
  it('four replicas on their own pools record 1,000 calls at once: exact totals', async () => {
    const schema = newSchema();
    const window = 20;
    const replicas = await Promise.all(
      Array.from({ length: 4 }, () => openStore(schema, { latencyWindow: window, maxConnections: 5 })),
    );
    const perReplica = 250;
    await Promise.all(
      replicas.map((replica, replicaIndex) =>
        Promise.all(
          Array.from({ length: perReplica }, (_, index) =>
            replica.recordCall({
              server: 'shared',
              tool: index % 2 === 0 ? 'even' : 'odd',
              publicName: 'shared__tool',
              ok: index % 10 !== 0,
              durationMs: replicaIndex * 1000 + index,
            }),
          ),
        ),
      ),
    );
    const usage = await replicas[0]?.listUsage({ server: 'shared' });
    const byTool = Object.fromEntries((usage ?? []).map((entry) => [entry.tool, entry]));
    expect(byTool.even).toMatchObject({ calls: 500, errors: 100, latencySamples: window });
    expect(byTool.odd).toMatchObject({ calls: 500, errors: 0, latencySamples: window });
    const [{ samples }] = await withClient(
      async (client) =>
        (await client.query(`SELECT count(*)::integer AS samples FROM "${schema}".tool_latency`)).rows as [
          { samples: number },
        ],
    );
    // Bounded: the trim keeps each tool near its window (a few concurrent samples may linger).
    expect(samples).toBeGreaterThanOrEqual(2 * window);
    expect(samples).toBeLessThanOrEqual(2 * window + 40);
  });
});

describe('catalogue change feed', () => {
  it('a change on one replica reaches the listeners of another; an unchanged listing does not', async () => {
    const schema = newSchema();
    const writer = await openStore(schema);
    const reader = await openStore(schema);
    const changes = createEventLog<RegistryChange>("the reader's changes");
    const unsubscribe = reader.onChange(changes.push);
    const own = createEventLog<RegistryChange>("the writer's own changes");
    writer.onChange(own.push);
    // Let both feeds listen before the first write.
    await expect.poll(() => listeningConnections(schema), { timeout: 10_000 }).toBe(2);

    await writer.recordTools('files', [tool('a'), tool('b')]);
    expect(await changes.atLeast(1)).toEqual([{ server: 'files', kind: 'tools', local: false }]);
    expect(await own.atLeast(1)).toEqual([{ server: 'files', kind: 'tools', local: true }]);

    // Seen again unchanged, and a reconnect attempt: no change. Then a real one, after them.
    await writer.recordTools('files', [tool('b'), tool('a')]);
    await writer.recordServer({ name: 'files', configHash: 'h', transport: 'stdio' });
    await writer.recordServer({
      name: 'files',
      configHash: 'h',
      transport: 'stdio',
      lastConnect: { ok: true, at: new Date().toISOString() },
    });
    await writer.recordTools('files', [tool('a', 'now does more')]);
    await changes.atLeast(3);
    // Notifications arrive in commit order: nothing else can still be on its way.
    expect(changes.entries).toEqual([
      { server: 'files', kind: 'tools', local: false },
      { server: 'files', kind: 'server', local: false },
      { server: 'files', kind: 'tools', local: false },
    ]);

    unsubscribe();
    await writer.recordTools('files', []);
    // In commit order: the reader, still listening, would have heard it before the writer did.
    expect(await own.atLeast(4)).toHaveLength(4);
    expect(changes.entries).toHaveLength(3);
  });

  it('a listener hears of a write made right after it subscribed, on the same instance', async () => {
    const store = await openStore(newSchema());
    const changes = createEventLog<RegistryChange>('changes');
    store.onChange(changes.push);
    await store.recordServer({ name: 'fresh', configHash: 'h', transport: 'http' });
    expect(await changes.atLeast(1)).toEqual([{ server: 'fresh', kind: 'server', local: true }]);
  });

  it('reconnects when its connection is killed, and announces what changed meanwhile', async () => {
    const schema = newSchema();
    const { logger, lines } = capturingLogger();
    const writer = await openStore(schema);
    const reader = await openStore(schema, { logger });
    const changes = createEventLog<RegistryChange>("the reader's changes");
    reader.onChange(changes.push);
    await expect.poll(() => listeningConnections(schema), { timeout: 10_000 }).toBe(1);

    await withClient((client) =>
      client.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = $1 AND pid <> pg_backend_pid()`,
        [`LISTEN "switchboard_catalog_${schema}"`],
      ),
    );
    // Written while the reader may be disconnected: the notification or the catch-up read brings it.
    await writer.recordTools('while-away', [tool('x')]);
    await changes.find((change) => change.server === 'while-away');
    await expect.poll(() => listeningConnections(schema), { timeout: 10_000 }).toBe(1);
    await writer.recordTools('after', [tool('y')]);
    await changes.find((change) => change.server === 'after');
    expect(lines.some((line) => line.includes('change feed connection was lost'))).toBe(true);
    expect(lines.join('\n')).not.toContain('switchboard:switchboard');
  });

  it('catches up by reading when notifications are missed (changePollMs)', async () => {
    const schema = newSchema();
    const writer = await openStore(schema);
    const reader = await openStore(schema, { changePollMs: 200 });
    const changes = createEventLog<RegistryChange>("the reader's changes");
    reader.onChange(changes.push);
    await expect.poll(() => listeningConnections(schema), { timeout: 10_000 }).toBe(1);
    // A change whose notification went to no one: written straight into the revisions, as a write
    // through a pooler that drops NOTIFY would leave it.
    await withClient((client) =>
      client.query(
        `INSERT INTO "${schema}".catalog_changes (server, revision, kind) VALUES ('silent', nextval('"${schema}".catalog_revision'), 'tools')`,
      ),
    );
    expect(await changes.atLeast(1)).toEqual([{ server: 'silent', kind: 'tools', local: false }]);
    expect(writer.location).toBe(reader.location);
  });
});

/** Connections listening on the schema's channel. */
async function listeningConnections(schema: string): Promise<number> {
  return withClient(async (client) => {
    const result = await client.query(
      `SELECT count(*)::integer AS count FROM pg_stat_activity WHERE query = $1 AND state = 'idle'`,
      [`LISTEN "switchboard_catalog_${schema}"`],
    );
    return result.rows[0].count as number;
  });
}

describe('OAuth records (TokenStore v1), encrypted', () => {
  const record = (serverUrl: string) => ({
    version: 2 as const,
    serverUrl,
    serverName: 'remote',
    tokens: {
      access_token: 'access-token-PLAINTEXT-1234',
      refresh_token: 'refresh-token-PLAINTEXT-5678',
      token_type: 'Bearer',
      issuer: 'https://auth.example.com',
    },
    clients: {
      'https://auth.example.com': {
        client_id: 'client-1',
        client_secret: 'client-secret-PLAINTEXT-9',
        issuer: 'https://auth.example.com',
      },
    },
    updatedAt: 1_700_000_000_000,
  });

  it('replicas share sign-ins; the table holds no token, secret or URL in clear', async () => {
    const schema = newSchema();
    const encryptionKey = 'a shared passphrase of the replicas';
    const first = await openStore(schema, { encryptionKey });
    const second = await openStore(schema, { encryptionKey });
    expect(first.tokenStore.specificationVersion).toBe('v1');
    const url = 'https://mcp.example.com/mcp';
    await first.tokenStore.save(record(url));
    expect(await second.tokenStore.load(url)).toEqual(record(url));
    expect(await second.tokenStore.load('https://other.example.com/mcp')).toBeUndefined();
    expect((await second.tokenStore.list()).map((stored) => stored.serverUrl)).toEqual([url]);

    const raw = await withClient(
      async (client) => (await client.query(`SELECT * FROM "${schema}".oauth_records`)).rows,
    );
    expect(raw).toHaveLength(1);
    const row = raw[0] as { server_key: string; sealed: Buffer };
    expect(row.sealed).toBeInstanceOf(Buffer);
    const stored = Buffer.concat([Buffer.from(row.server_key), row.sealed]);
    for (const secret of ['PLAINTEXT', 'access-token', 'refresh-token', 'client-secret', 'mcp.example.com']) {
      expect(stored.includes(Buffer.from(secret))).toBe(false);
    }

    expect(await second.tokenStore.delete(url)).toBe(true);
    expect(await first.tokenStore.load(url)).toBeUndefined();
    expect(await first.tokenStore.delete(url)).toBe(false);
  });

  it('a 32-byte key works; another key cannot open the records', async () => {
    const schema = newSchema();
    const key = new Uint8Array(32).fill(7);
    const writer = await openStore(schema, { encryptionKey: key });
    await writer.tokenStore.save(record('https://a.example.com/mcp'));
    const other = await openStore(schema, { encryptionKey: new Uint8Array(32).fill(8) });
    const error = await other.tokenStore.load('https://a.example.com/mcp').catch((caught: unknown) => caught);
    expect(SwitchboardError.hasCode(error, PostgresStoreErrorCode.DecryptionFailed)).toBe(true);
    expect((error as Error).message).toMatch(/Give every replica the same key/);
    expect(await other.tokenStore.list()).toEqual([]);
    expect((await writer.tokenStore.load('https://a.example.com/mcp'))?.tokens?.access_token).toBe(
      'access-token-PLAINTEXT-1234',
    );
  });

  it('storing a record without an encryptionKey fails clearly, and stores nothing', async () => {
    const schema = newSchema();
    const store = await openStore(schema);
    const error = await store.tokenStore
      .save(record('https://a.example.com/mcp'))
      .catch((caught: unknown) => caught);
    expect(SwitchboardError.hasCode(error, PostgresStoreErrorCode.EncryptionKeyMissing)).toBe(true);
    expect((error as Error).message).toContain('Pass encryptionKey to createPostgresStore');
    expect(await store.tokenStore.list()).toEqual([]);
    expect(() =>
      createPostgresStore({ connectionString: postgresUrl, encryptionKey: new Uint8Array(16) }),
    ).toThrow(/encryptionKey must be 32 bytes, not 16/);
    expect(() => createPostgresStore({ connectionString: postgresUrl, encryptionKey: 'short' })).toThrow(
      /at least 16 characters/,
    );
  });
});

describe('bad input says what, where and what to do, never the password', () => {
  const password = 'pw-Never-Shown-42';

  it('an unreachable database', async () => {
    const store = createPostgresStore({
      connectionString: `postgres://switchboard:${password}@127.0.0.1:1/switchboard`,
      schema: newSchema(),
      connectTimeoutMs: 3000,
    });
    stores.push(store);
    const error = await store.ping().catch((caught: unknown) => caught);
    expect(SwitchboardError.hasCode(error, PostgresStoreErrorCode.Unavailable)).toBe(true);
    expect((error as Error).message).toContain('postgres://switchboard@127.0.0.1:1/switchboard');
    expect((error as Error).message).toMatch(/cannot be reached: check that PostgreSQL runs there/);
    expect(everythingShown(error)).not.toContain(password);
    await expect(store.listServers()).rejects.toMatchObject({ code: PostgresStoreErrorCode.Unavailable });
  });

  it('a wrong password', async () => {
    const { logger, lines } = capturingLogger();
    const store = createPostgresStore({
      connectionString: withPassword(postgresUrl, password),
      schema: newSchema(),
      logger,
    });
    stores.push(store);
    const error = await store.ready().catch((caught: unknown) => caught);
    expect(SwitchboardError.hasCode(error, PostgresStoreErrorCode.Unavailable)).toBe(true);
    expect((error as Error).message).toMatch(/refused the credentials: check the user and password/);
    expect((error as SwitchboardError).context).toMatchObject({ errorCode: '28P01' });
    expect(everythingShown(error)).not.toContain(password);
    expect(lines.join('\n')).not.toContain(password);
  });

  it('a malformed connection string, a bad schema name, no target', () => {
    const bad = (options: PostgresStoreOptions) => {
      try {
        createPostgresStore(options);
      } catch (error) {
        return error as SwitchboardError;
      }
      throw new Error('expected createPostgresStore to throw');
    };
    const notPostgres = bad({ connectionString: `mysql://root:${password}@db/x` });
    expect(notPostgres.code).toBe(PostgresStoreErrorCode.InvalidOptions);
    expect(notPostgres.message).toContain('postgres://user:password@host:5432/database');
    expect(everythingShown(notPostgres)).not.toContain(password);
    expect(bad({ connectionString: `not a url ${password}` }).message).not.toContain(password);
    expect(bad({ connectionString: postgresUrl, schema: 'Robert"; DROP TABLE x' }).message).toMatch(
      /is not a plain identifier/,
    );
    expect(bad({}).message).toMatch(/pass connectionString .* or a pg Pool as pool/);
  });

  it('the store says to install pg when it is missing; the root entry does not need it', () => {
    const run = spawnSync(process.execPath, [fixture('without-pg.mjs')], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const result = JSON.parse(run.stdout) as { rootLoaded: boolean; code: string; message: string };
    expect(result).toMatchObject({ rootLoaded: true, code: PostgresStoreErrorCode.DependencyMissing });
    expect(result.message).toContain('install pg@8');
    expect(result.message).not.toContain('secret-pw');
  });
});

describe('a pool of the caller', () => {
  it('is used and left open by close(); ping answers while the database does', async () => {
    const pool = new pg.Pool({ connectionString: postgresUrl, max: 3 });
    pools.push(pool);
    const schema = newSchema();
    const store = createPostgresStore({ pool, schema });
    expect(store.location).toBe(`postgres://switchboard@127.0.0.1:5432/switchboard (schema ${schema})`);
    await store.ping();
    await store.recordTools('s', [tool('t')]);
    const changes = createEventLog<RegistryChange>('changes');
    store.onChange(changes.push);
    await expect.poll(() => listeningConnections(schema), { timeout: 10_000 }).toBe(1);
    await store.recordTools('s', [tool('t', 'changed')]);
    expect(await changes.atLeast(1)).toEqual([{ server: 's', kind: 'tools', local: true }]);
    await store.close();
    await store.close();
    await expect(store.ping()).rejects.toMatchObject({ message: expect.stringMatching(/was closed/) });
    expect((await pool.query('SELECT 1 AS one')).rows[0].one).toBe(1);
    await expect.poll(() => listeningConnections(schema), { timeout: 10_000 }).toBe(0);
  });
});
