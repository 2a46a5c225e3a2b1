/**
 * The transports' `TokenStore` v1 on the PostgreSQL store, so that every replica of a gateway shares
 * the sign-ins (tokens, client registrations, DPoP keys) of its upstream servers. A record is kept
 * whole, sealed with AES-256-GCM ({@link createRecordCipher}) under a hash of its server URL; the
 * database never holds a token, a client secret or the URL in clear.
 */

import type { Logger } from '@switchboard/core';
import { type StoredAuthorization, serverKey, type TokenStore } from '@switchboard/transports';
import type { PostgresDatabase } from './postgres-connection.js';
import { PostgresStoreErrorCode, postgresStoreError } from './postgres-store-error.js';
import type { RecordCipher } from './record-cipher.js';

/** What the token store needs of the registry store it lives in. */
export interface PostgresTokenStoreParts {
  /** The migrated database, on first use. */
  database(): Promise<PostgresDatabase>;
  /** Quoted schema name. */
  schema: string;
  /** Undefined without an `encryptionKey`: records can then only be deleted. */
  cipher: RecordCipher | undefined;
  location: string;
  logger: Logger;
}

/** Creates the token store of a PostgreSQL registry store. */
export function createPostgresTokenStore(parts: PostgresTokenStoreParts): TokenStore {
  const table = `${parts.schema}.oauth_records`;
  const requireCipher = (doing: string): RecordCipher => {
    if (parts.cipher) return parts.cipher;
    throw postgresStoreError({
      code: PostgresStoreErrorCode.EncryptionKeyMissing,
      message: `PostgreSQL registry store ${parts.location}: cannot ${doing} an OAuth record without an encryptionKey, because tokens are kept only encrypted. Pass encryptionKey to createPostgresStore (32 bytes, or a passphrase of 16+ characters), the same on every replica.`,
      location: parts.location,
    });
  };
  const openRow = async (cipher: RecordCipher, row: Record<string, unknown>): Promise<StoredAuthorization> =>
    JSON.parse(await cipher.open(row.sealed as Buffer, row.server_key as string)) as StoredAuthorization;

  return {
    specificationVersion: 'v1',
    async load(serverUrl) {
      const database = await parts.database();
      const key = serverKey(serverUrl);
      const result = await database.query(`SELECT server_key, sealed FROM ${table} WHERE server_key = $1`, [
        key,
      ]);
      const row = result.rows[0];
      if (!row) return undefined;
      return openRow(requireCipher('read'), row);
    },
    async save(record) {
      const cipher = requireCipher('store');
      const database = await parts.database();
      const key = serverKey(record.serverUrl);
      const sealed = await cipher.seal(JSON.stringify(record), key);
      await database.query(
        `INSERT INTO ${table} (server_key, sealed, updated_at) VALUES ($1, $2, now())
         ON CONFLICT (server_key) DO UPDATE SET sealed = excluded.sealed, updated_at = excluded.updated_at`,
        [key, sealed],
      );
    },
    async delete(serverUrl) {
      const database = await parts.database();
      const result = await database.query(`DELETE FROM ${table} WHERE server_key = $1`, [
        serverKey(serverUrl),
      ]);
      return (result.rowCount ?? 0) > 0;
    },
    async list() {
      const database = await parts.database();
      const result = await database.query(`SELECT server_key, sealed FROM ${table} ORDER BY server_key`);
      if (result.rows.length === 0) return [];
      const cipher = requireCipher('read');
      const records: StoredAuthorization[] = [];
      for (const row of result.rows) {
        try {
          records.push(await openRow(cipher, row));
        } catch (error) {
          // Like the file store's unreadable files: listed as absent, and said once in the log.
          parts.logger.warn(
            {
              store: parts.location,
              record: row.server_key,
              error: error instanceof Error ? error.message : String(error),
            },
            'PostgreSQL registry store: an OAuth record does not open with the configured key; skipped.',
          );
        }
      }
      return records;
    },
  };
}
