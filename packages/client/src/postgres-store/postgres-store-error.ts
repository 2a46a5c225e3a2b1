/**
 * The PostgreSQL store's errors: a code table beside the one function that builds them. Every
 * message names the database as `location` (the connection URL without its password) and says what
 * to do; a driver message is passed through {@link redactSecret} first, so the password never
 * reaches a message, a log or `context`.
 */

import { SwitchboardError } from '@switchboard/core';

/** Codes of the errors the PostgreSQL store raises (local errors, string values). */
export const PostgresStoreErrorCode = {
  /** The optional peer dependency `pg` is not installed. */
  DependencyMissing: 'STORE_DEPENDENCY_MISSING',
  /** The options cannot work: no or a malformed connection string, a bad schema name, a bad key. */
  InvalidOptions: 'STORE_INVALID_OPTIONS',
  /** The database cannot be reached, refused the credentials, or the store was closed. */
  Unavailable: 'STORE_UNAVAILABLE',
  /** The database was migrated by a newer Switchboard than this one. */
  SchemaTooNew: 'STORE_SCHEMA_TOO_NEW',
  /** An OAuth record was to be stored or read without an `encryptionKey`. */
  EncryptionKeyMissing: 'STORE_ENCRYPTION_KEY_MISSING',
  /** A stored OAuth record does not open with the configured key (another key, or altered). */
  DecryptionFailed: 'STORE_DECRYPTION_FAILED',
} as const;

/** A code of {@link PostgresStoreErrorCode}. */
export type PostgresStoreErrorCode = (typeof PostgresStoreErrorCode)[keyof typeof PostgresStoreErrorCode];

/** Builds a store error; `context` always carries the (password-free) location. */
export function postgresStoreError(options: {
  code: PostgresStoreErrorCode;
  message: string;
  location: string;
  context?: Record<string, unknown>;
  cause?: unknown;
}): SwitchboardError {
  return new SwitchboardError({
    code: options.code,
    message: options.message,
    context: { location: options.location, ...options.context },
    ...(options.cause === undefined ? {} : { cause: options.cause }),
  });
}

/** `text` with every occurrence of `secret` (and its URL-encoded form) replaced by `***`. */
export function redactSecret(text: string, secret: string | undefined): string {
  if (!secret) return text;
  let result = text.split(secret).join('***');
  const encoded = encodeURIComponent(secret);
  if (encoded !== secret) result = result.split(encoded).join('***');
  return result;
}

/** The message of whatever was thrown, without `secret`. */
export function reasonOf(error: unknown, secret: string | undefined): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  const text = message || (typeof code === 'string' ? code : 'unknown error');
  return redactSecret(text, secret);
}
