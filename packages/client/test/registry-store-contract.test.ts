/** The RegistryStore v1 contract, run against the SQLite store and the PostgreSQL store. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgresStore } from '../src/postgres-store/index.js';
import { openSqliteStore } from '../src/sqlite-store/index.js';
import { dropSchemas, postgresUrl, randomSchema } from './helpers/postgres.js';
import { describeRegistryStoreContract } from './helpers/registry-store-contract.js';

let directory: string | undefined;
let path = '';
describeRegistryStoreContract('SQLite', {
  async fresh(options = {}) {
    directory = mkdtempSync(join(tmpdir(), 'sb-contract-'));
    path = join(directory, 'registry.db');
    return openSqliteStore({ path, ...options });
  },
  another: (options = {}) => openSqliteStore({ path, ...options }),
  async cleanup() {
    if (directory) rmSync(directory, { recursive: true, force: true });
    directory = undefined;
  },
});

const schemas: string[] = [];
describeRegistryStoreContract('PostgreSQL', {
  async fresh(options = {}) {
    schemas.push(randomSchema());
    return openPostgresStore({ connectionString: postgresUrl, schema: schemas.at(-1) as string, ...options });
  },
  another: (options = {}) =>
    openPostgresStore({ connectionString: postgresUrl, schema: schemas.at(-1) as string, ...options }),
  async cleanup() {
    await dropSchemas(schemas.splice(0));
  },
});
