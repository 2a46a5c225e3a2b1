/**
 * AES-256-GCM sealing of secret records (OAuth tokens, client registrations) before they reach a
 * shared database: what a database dump or a DBA sees is ciphertext. The row key is bound into the
 * tag as associated data, so a sealed record copied onto another row does not open.
 *
 * Sealed layout: version byte (1) | 12-byte IV | 16-byte tag | ciphertext.
 */

import { createCipheriv, createDecipheriv, randomBytes, scrypt } from 'node:crypto';
import { PostgresStoreErrorCode, postgresStoreError } from './postgres-store-error.js';

const format = 1;
const ivLength = 12;
const tagLength = 16;
// Fixed: the key must be the same in every replica, and a passphrase is stretched the same way.
const passphraseSalt = 'switchboard/postgres-store/oauth-records/v1';

/** Seals and opens records with one key. */
export interface RecordCipher {
  seal(plaintext: string, rowKey: string): Promise<Buffer>;
  /** The plaintext, or a `STORE_DECRYPTION_FAILED` error naming the row. */
  open(sealed: Uint8Array, rowKey: string): Promise<string>;
}

/**
 * A cipher on `encryptionKey`: 32 bytes used as they are, or a passphrase of at least 16
 * characters stretched with scrypt (once, on first use).
 */
export function createRecordCipher(encryptionKey: string | Uint8Array, location: string): RecordCipher {
  let key: Promise<Buffer>;
  if (typeof encryptionKey === 'string') {
    if (encryptionKey.length < 16) throw invalidKey(location, 'a passphrase of at least 16 characters');
    key = new Promise((resolve, reject) => {
      scrypt(
        encryptionKey,
        passphraseSalt,
        32,
        { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 },
        (error, derived) => (error ? reject(error) : resolve(derived)),
      );
    });
  } else {
    if (encryptionKey.length !== 32) throw invalidKey(location, `32 bytes, not ${encryptionKey.length}`);
    key = Promise.resolve(Buffer.from(encryptionKey));
  }
  const associated = (rowKey: string) => Buffer.from(`switchboard oauth record v${format}:${rowKey}`);

  return {
    async seal(plaintext, rowKey) {
      const iv = randomBytes(ivLength);
      const cipher = createCipheriv('aes-256-gcm', await key, iv);
      cipher.setAAD(associated(rowKey));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return Buffer.concat([Buffer.from([format]), iv, cipher.getAuthTag(), body]);
    },
    async open(sealed, rowKey) {
      const bytes = Buffer.from(sealed);
      try {
        if (bytes[0] !== format || bytes.length < 1 + ivLength + tagLength) throw new Error('unknown format');
        const decipher = createDecipheriv('aes-256-gcm', await key, bytes.subarray(1, 1 + ivLength));
        decipher.setAAD(associated(rowKey));
        decipher.setAuthTag(bytes.subarray(1 + ivLength, 1 + ivLength + tagLength));
        return Buffer.concat([
          decipher.update(bytes.subarray(1 + ivLength + tagLength)),
          decipher.final(),
        ]).toString('utf8');
      } catch (error) {
        throw postgresStoreError({
          code: PostgresStoreErrorCode.DecryptionFailed,
          message: `PostgreSQL registry store ${location}: the OAuth record ${rowKey} does not open with the configured encryptionKey (it was sealed with another key, or altered). Give every replica the same key, or delete the record (switchboard auth --revoke <server>, or TokenStore.delete) and sign in again.`,
          location,
          context: { record: rowKey },
          cause: error,
        });
      }
    },
  };
}

function invalidKey(location: string, wanted: string) {
  return postgresStoreError({
    code: PostgresStoreErrorCode.InvalidOptions,
    message: `createPostgresStore: encryptionKey must be ${wanted}. Generate one with \`openssl rand -base64 32\` and give every replica the same.`,
    location,
  });
}
