/** Test helpers for the PostgreSQL store: the test database, and a random schema per test dropped after it. */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The test database (`SWITCHBOARD_TEST_POSTGRES_URL`, else the local one of scripts/services.sh). */
export const postgresUrl =
  process.env.SWITCHBOARD_TEST_POSTGRES_URL ??
  'postgres://switchboard:switchboard@127.0.0.1:5432/switchboard';

/** A fresh schema name (nothing is created: the store under test creates it). */
export function randomSchema(): string {
  return `sb_test_${randomBytes(6).toString('hex')}`;
}

/** Runs `work` on a connection of its own. */
export async function withClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Drops schemas made by a test. */
export async function dropSchemas(schemas: readonly string[]): Promise<void> {
  if (schemas.length === 0) return;
  await withClient(async (client) => {
    for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  });
}

/** The URL with another password (the database refuses it). */
export function withPassword(url: string, password: string): string {
  const parsed = new URL(url);
  parsed.password = encodeURIComponent(password);
  return parsed.href;
}
