/** connectMcp on the PostgreSQL store, with a real server: what one replica records, another sees. */
import { createToolRegistry, type RegisteredTool } from '@switchboard/core';
import { createEventLog, everythingStdio } from '@switchboard/test-helpers';
import { afterEach, describe, expect, it } from 'vitest';
import { connectMcp, type McpConnection } from '../../src/index.js';
import {
  openPostgresStore,
  type PostgresRegistryStore,
  type RegistryChange,
} from '../../src/postgres-store/index.js';
import { dropSchemas, postgresUrl, randomSchema } from '../helpers/postgres.js';

describe('connectMcp with the PostgreSQL store', () => {
  const connections: McpConnection[] = [];
  const stores: PostgresRegistryStore[] = [];
  const schemas: string[] = [];
  afterEach(async () => {
    for (const connection of connections.splice(0)) await connection.close();
    for (const store of stores.splice(0)) await store.close();
    await dropSchemas(schemas.splice(0));
  });

  it('records calls and tools; another replica is told, sees the usage and restores the tools', async () => {
    const schema = randomSchema();
    schemas.push(schema);
    const open = async () => {
      const store = await openPostgresStore({ connectionString: postgresUrl, schema });
      stores.push(store);
      return store;
    };
    const first = await open();
    const second = await open();
    const changes = createEventLog<RegistryChange>("the second replica's changes");
    second.onChange(changes.push);

    const connection = await connectMcp({ everything: everythingStdio() }, { store: first });
    connections.push(connection);
    for (const message of ['a', 'b', 'c']) await connection.callTool('mcp__everything__echo', { message });
    await changes.find((change) => change.server === 'everything' && change.kind === 'tools');
    await expect
      .poll(async () => (await second.listUsage({ server: 'everything' }))[0]?.calls, {
        timeout: 5000,
        interval: 50,
      })
      .toBe(3);
    expect((await second.listServers())[0]).toMatchObject({
      name: 'everything',
      transport: 'stdio',
      lastConnect: { ok: true },
    });

    // The second replica's registry hears of the stored tools before its server is up.
    const registry = createToolRegistry();
    const seen: RegisteredTool[] = [];
    registry.subscribe((event) => {
      if (event.type === 'added') seen.push(event.tool);
    });
    const replica = await connectMcp({ everything: everythingStdio() }, { store: second, registry });
    connections.push(replica);
    const echo = seen.find((registered) => registered.name === 'mcp__everything__echo');
    expect(echo?.meta?.restored).toBe(true);
    await replica.callTool('mcp__everything__echo', { message: 'd' });
    await expect
      .poll(async () => (await first.listUsage({ server: 'everything' }))[0]?.calls, {
        timeout: 5000,
        interval: 50,
      })
      .toBe(4);
  });
});
