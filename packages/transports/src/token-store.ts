/**
 * Where OAuth state lives between runs: the versioned `TokenStore` interface (per server URL: tokens,
 * client registrations, discovery, the DPoP key), its default of one 0600 file per server named by a
 * hash of the URL (so no URL shows in a path), an in-memory store, and the migration of records
 * written before credentials were bound to their authorization server.
 */
import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type {
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { SwitchboardError } from '@switchboard/core';
import { AuthorizationErrorCode } from './authorization-error-code.js';

/** A DPoP signing key kept with a server's tokens: the tokens are bound to it (RFC 9449 `cnf.jkt`). Secret. */
export interface StoredDpopKey {
  /** JWS algorithm of the key, e.g. `ES256`. */
  alg: string;
  /** The private key as a JWK. Never log it. */
  privateJwk: Record<string, unknown>;
  /** The public key as a JWK (embedded in every proof). */
  publicJwk: Record<string, unknown>;
}

/** The pre-registered client of a server entry and the authorization server it was first used with. */
export interface StoredClientBinding {
  /** The configured client id. */
  clientId: string;
  /** The issuer of the authorization server this client id was first used with (trust on first use). */
  issuer: string;
}

/**
 * What Switchboard keeps about its authorization with one MCP server. Secrets: never log it.
 *
 * Credentials are bound to the authorization server that issued them (SEP-2352): client
 * registrations are kept per issuer, and the tokens carry their issuer, so nothing obtained from
 * one authorization server is ever sent to another.
 */
export interface StoredAuthorization {
  /** Format of this record (files of format 1 are migrated when read). */
  version: 2;
  /** The MCP server's URL: the record's key. */
  serverUrl: string;
  /** Server name as configured, for listings. */
  serverName?: string;
  /** The last tokens issued (access token, refresh token, scope), stamped with their issuer. */
  tokens?: StoredOAuthTokens;
  /** When the access token expires, ms since the epoch (from `expires_in` when it was issued). */
  expiresAt?: number;
  /** Dynamic registrations (or metadata-document client ids), by authorization-server issuer. */
  clients?: Record<string, StoredOAuthClientInformation>;
  /** The issuer a configured `clientId` was first used with: it is never sent to another one. */
  configuredClient?: StoredClientBinding;
  /** PKCE code verifier of a sign-in in progress. */
  codeVerifier?: string;
  /** Cached discovery results (protected-resource and authorization-server metadata). */
  discovery?: OAuthDiscoveryState;
  /** The DPoP key the tokens are bound to, when DPoP is on. */
  dpopKey?: StoredDpopKey;
  /** Last change, ms since the epoch. */
  updatedAt: number;
}

/**
 * Where OAuth tokens and client registrations live, per MCP server URL. Versioned: implementations
 * declare the specification they follow.
 */
export interface TokenStore {
  /** The version of this interface the store implements. */
  readonly specificationVersion: 'v1';
  /** The record of `serverUrl`, or undefined when there is none. */
  load(serverUrl: string): Promise<StoredAuthorization | undefined>;
  /** Replaces the record of `record.serverUrl`. */
  save(record: StoredAuthorization): Promise<void>;
  /** Deletes the record of `serverUrl`; true when there was one. */
  delete(serverUrl: string): Promise<boolean>;
  /** Every record. */
  list(): Promise<StoredAuthorization[]>;
}

/** Options of {@link createFileTokenStore}. */
export interface FileTokenStoreOptions {
  /** Directory of the record files. @default `~/.switchboard/auth` */
  directory?: string;
}

/** The file name stem of a server's record: a hash of its URL, so the URL itself leaks nothing into paths. */
export function serverKey(serverUrl: string): string {
  let canonical = serverUrl;
  try {
    const url = new URL(serverUrl);
    url.hash = '';
    canonical = url.href;
  } catch {
    // Not a URL: hashed as written.
  }
  return createHash('sha256').update(canonical).digest('hex').slice(0, 32);
}

/** The default token directory, `~/.switchboard/auth`. */
export function defaultTokenDirectory(home: string = homedir()): string {
  return join(home, '.switchboard', 'auth');
}

/** A record of format 1 (before credentials were bound to their authorization server). */
interface StoredAuthorizationV1 {
  version: 1;
  serverUrl: string;
  serverName?: string;
  tokens?: StoredOAuthTokens;
  expiresAt?: number;
  clientInformation?: StoredOAuthClientInformation;
  discovery?: OAuthDiscoveryState;
  updatedAt: number;
}

/**
 * Brings a stored record to the current format. A format-1 record's tokens and registration are
 * bound to the authorization server its cached discovery names; without one nothing tells which
 * server issued them, so they are dropped and the server asks for a sign-in again.
 */
export function migrateStoredAuthorization(value: unknown): StoredAuthorization | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as { version?: unknown };
  if (record.version === 2) return value as StoredAuthorization;
  if (record.version !== 1) return undefined;
  const old = value as StoredAuthorizationV1;
  const issuer = old.discovery?.authorizationServerMetadata?.issuer ?? old.discovery?.authorizationServerUrl;
  const migrated: StoredAuthorization = {
    version: 2,
    serverUrl: old.serverUrl,
    ...(old.serverName !== undefined ? { serverName: old.serverName } : {}),
    updatedAt: old.updatedAt,
  };
  if (issuer === undefined) return migrated;
  if (old.discovery) migrated.discovery = old.discovery;
  if (old.tokens) {
    migrated.tokens = { ...old.tokens, issuer };
    if (old.expiresAt !== undefined) migrated.expiresAt = old.expiresAt;
  }
  if (old.clientInformation) migrated.clients = { [issuer]: { ...old.clientInformation, issuer } };
  return migrated;
}

/**
 * Creates the default token store: one JSON file per server (`<directory>/<hash of URL>.json`),
 * written atomically with mode 0600 in a directory of mode 0700. Files of an older format are
 * migrated as they are read (and rewritten in the new one on the next save).
 */
export function createFileTokenStore(options: FileTokenStoreOptions = {}): TokenStore {
  const directory = options.directory ?? defaultTokenDirectory();
  const fileOf = (serverUrl: string) => join(directory, `${serverKey(serverUrl)}.json`);

  const readRecord = async (file: string): Promise<StoredAuthorization | undefined> => {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw storeError(`cannot read ${file}: ${(error as Error).message}`, error);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      // The file's content may be secret: the error names only the file.
      throw storeError(`${file} is not valid JSON. Delete it and sign in again (switchboard auth <server>).`);
    }
    return migrateStoredAuthorization(parsed);
  };

  return {
    specificationVersion: 'v1',
    load: (serverUrl) => readRecord(fileOf(serverUrl)),
    async save(record) {
      await mkdir(directory, { recursive: true, mode: 0o700 });
      await chmod(directory, 0o700).catch(() => undefined);
      const file = fileOf(record.serverUrl);
      const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await writeFile(temporary, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
        await rename(temporary, file);
      } catch (error) {
        await rm(temporary, { force: true }).catch(() => undefined);
        throw storeError(`cannot write ${file}: ${(error as Error).message}`, error);
      }
    },
    async delete(serverUrl) {
      const file = fileOf(serverUrl);
      const existed = (await readRecord(file).catch(() => undefined)) !== undefined;
      await rm(file, { force: true });
      return existed;
    },
    async list() {
      let names: string[];
      try {
        names = await readdir(directory);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw storeError(`cannot list ${directory}: ${(error as Error).message}`, error);
      }
      const records: StoredAuthorization[] = [];
      for (const name of names.filter((entry) => entry.endsWith('.json')).sort()) {
        const record = await readRecord(join(directory, name)).catch(() => undefined);
        if (record) records.push(record);
      }
      return records;
    },
  };
}

/** Creates a token store that keeps records in memory only (tests, short-lived processes). */
export function createMemoryTokenStore(): TokenStore {
  const records = new Map<string, StoredAuthorization>();
  const clone = (record: StoredAuthorization) => structuredClone(record);
  return {
    specificationVersion: 'v1',
    load: async (serverUrl) => {
      const record = records.get(serverKey(serverUrl));
      return record ? clone(record) : undefined;
    },
    save: async (record) => {
      records.set(serverKey(record.serverUrl), clone(record));
    },
    delete: async (serverUrl) => records.delete(serverKey(serverUrl)),
    list: async () => [...records.values()].map(clone),
  };
}

function storeError(message: string, cause?: unknown): SwitchboardError {
  return new SwitchboardError({
    code: AuthorizationErrorCode.TokenStoreError,
    message: `Token store: ${message}`,
    cause,
  });
}
