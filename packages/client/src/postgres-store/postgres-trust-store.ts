/**
 * Core's `ToolTrustStore` v1 on the PostgreSQL store: the trust decisions every replica shares. A
 * write bumps the server's catalogue revision with kind `trust` in the same transaction, so the
 * change feed tells the other replicas, which read the server's records again — an approval on
 * one replica releases the tool on all of them.
 */

import type { ToolTrustChangeListener, ToolTrustRecord, ToolTrustStore } from '@switchboard/core';
import { fromTrustRow, type TrustRow, toTrustRow } from '../trust-record-row.js';
import type { RegistryChangeListener } from './postgres-change-feed.js';
import type { PostgresDatabase, PostgresPoolClient } from './postgres-connection.js';

/** What the trust store needs of its registry store. */
export interface PostgresTrustStoreParts {
  database(): Promise<PostgresDatabase>;
  /** Quoted schema name. */
  schema: string;
  /** Bumps the server's revision and notifies, inside the writing transaction. */
  announce(client: PostgresPoolClient, server: string): Promise<void>;
  /** Waits until a started change feed listens, so a listener hears of this write. */
  settled(): Promise<void>;
  /** Subscribes to the change feed. */
  subscribe(listener: RegistryChangeListener): () => void;
}

const columns =
  'server, tool, digest, status, definition, change, previous_digest, previous_name, parts, findings, decided_at, decided_by';

/** Creates the trust store of a PostgreSQL registry store. */
export function createPostgresTrustStore(parts: PostgresTrustStoreParts): ToolTrustStore {
  const table = `${parts.schema}.tool_trust`;
  const servers = (records: readonly { server: string }[]) => [
    ...new Set(records.map((record) => record.server)),
  ];
  return {
    specificationVersion: 'v1',
    async listTrust(filter = {}) {
      const database = await parts.database();
      const result =
        filter.server === undefined
          ? await database.query(`SELECT ${columns} FROM ${table} ORDER BY server, tool, decided_at`)
          : await database.query(
              `SELECT ${columns} FROM ${table} WHERE server = $1 ORDER BY tool, decided_at`,
              [filter.server],
            );
      return (result.rows as unknown as TrustRow[]).map(fromTrustRow);
    },
    async putTrust(records: readonly ToolTrustRecord[]) {
      if (records.length === 0) return;
      const database = await parts.database();
      await parts.settled();
      const rows = records.map(toTrustRow);
      const column = <K extends keyof TrustRow>(key: K) => rows.map((row) => row[key]);
      await database.transaction(async (client) => {
        await client.query(
          `INSERT INTO ${table} (${columns})
           SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
             $8::text[], $9::text[], $10::text[], $11::timestamptz[], $12::text[])
           ON CONFLICT (server, tool, digest) DO UPDATE SET
             status = excluded.status, definition = excluded.definition, change = excluded.change,
             previous_digest = excluded.previous_digest, previous_name = excluded.previous_name,
             parts = excluded.parts, findings = excluded.findings, decided_at = excluded.decided_at,
             decided_by = excluded.decided_by`,
          [
            column('server'),
            column('tool'),
            column('digest'),
            column('status'),
            column('definition'),
            column('change'),
            column('previous_digest'),
            column('previous_name'),
            column('parts'),
            column('findings'),
            column('decided_at'),
            column('decided_by'),
          ],
        );
        for (const server of servers(records)) await parts.announce(client, server);
      });
    },
    async removeTrust(keys) {
      if (keys.length === 0) return;
      const database = await parts.database();
      await parts.settled();
      await database.transaction(async (client) => {
        for (const key of keys) {
          if (key.digest === undefined)
            await client.query(`DELETE FROM ${table} WHERE server = $1 AND tool = $2`, [
              key.server,
              key.tool,
            ]);
          else
            await client.query(`DELETE FROM ${table} WHERE server = $1 AND tool = $2 AND digest = $3`, [
              key.server,
              key.tool,
              key.digest,
            ]);
        }
        for (const server of servers(keys)) await parts.announce(client, server);
      });
    },
    onTrustChange(listener: ToolTrustChangeListener) {
      // Any change of another replica's: a catch-up read sees only a server's last kind, and reading
      // a server's trust records again after a tools change costs one query.
      return parts.subscribe((change) => {
        if (!change.local) listener(change.server);
      });
    },
  };
}
