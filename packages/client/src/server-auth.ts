/**
 * OAuth per server: the `auth` block of a server entry, and the provider (from
 * @switchboard/transports) that a remote server's transport gets from it.
 */
import { homedir } from 'node:os';
import {
  createFileTokenStore,
  createOAuthProvider,
  defaultTokenDirectory,
  type OAuthGrantType,
  type OAuthProvider,
  type TokenStore,
} from '@switchboard/transports';
import type { JsonPathSegment } from './config/jsonc-document.js';

/** The `auth` block of a remote server's entry. `false` turns OAuth off for the server. */
export interface ServerAuthConfig {
  /** `authorization_code` (sign in with `switchboard auth <server>`) or `client_credentials` (headless). @default 'authorization_code' */
  grantType?: OAuthGrantType;
  /** A pre-registered client id (`${VAR}` expands). Without one: a client-id metadata document or dynamic registration. */
  clientId?: string;
  /** The pre-registered client's secret (`${VAR}` expands). Never logged. */
  clientSecret?: string;
  /** HTTPS URL of this client's metadata document, used as client id where the server supports it. */
  clientMetadataUrl?: string;
  /** Scopes to ask for when the server names none. */
  scopes?: string[];
  /** PEM private key for `private_key_jwt` (`${VAR}` expands). Never logged. */
  privateKey?: string;
  /** Algorithm of `privateKey`. @default 'RS256' */
  signingAlgorithm?: string;
  /** Port of the loopback redirect during a sign-in. @default the one registered before, else a free one */
  redirectPort?: number;
}

/** OAuth options of a client (all servers). */
export interface ClientAuthOptions {
  /** Where tokens and registrations are kept. @default createFileTokenStore() (`~/.switchboard/auth`, 0600 files) */
  store?: TokenStore;
  /**
   * Opens a sign-in URL for a person (a browser). Without it no sign-in happens while
   * connecting: a server that needs one reports `needs-auth` and `switchboard auth <server>` signs in.
   */
  openUrl?: (url: URL) => void | Promise<void>;
}

/** The parts of a server entry that decide whether it gets an OAuth provider. */
interface AuthEntry {
  url?: string | undefined;
  headers?: Record<string, string> | undefined;
  bearerToken?: unknown;
  auth?: unknown;
}

const defaultStores = new Map<string, TokenStore>();

/** The file store under `$SWITCHBOARD_HOME/.switchboard/auth` (else the user's home), one per directory. */
function defaultStore(): TokenStore {
  // SWITCHBOARD_HOME moves ~/.switchboard (the CLI's tests and sandboxes use it).
  const directory = defaultTokenDirectory(process.env.SWITCHBOARD_HOME ?? homedir());
  let store = defaultStores.get(directory);
  if (!store) {
    store = createFileTokenStore({ directory });
    defaultStores.set(directory, store);
  }
  return store;
}

/**
 * The OAuth provider of a remote (Streamable HTTP) server: every URL server gets one, unless it
 * sends its own `Authorization` header (or `bearerToken`) or says `auth: false`. Until the server answers 401 it
 * costs nothing but a lookup in the token store.
 */
export function createServerAuthProvider(
  name: string,
  entry: AuthEntry,
  options: ClientAuthOptions = {},
): OAuthProvider | undefined {
  if (entry.url === undefined || entry.auth === false || entry.bearerToken !== undefined) return undefined;
  if (Object.keys(entry.headers ?? {}).some((key) => key.toLowerCase() === 'authorization')) return undefined;
  const auth = (typeof entry.auth === 'object' && entry.auth !== null ? entry.auth : {}) as ServerAuthConfig;
  return createOAuthProvider({
    serverUrl: entry.url,
    serverName: name,
    store: options.store ?? defaultStore(),
    ...(auth.grantType ? { grantType: auth.grantType } : {}),
    ...(auth.clientId !== undefined ? { clientId: auth.clientId } : {}),
    ...(auth.clientSecret !== undefined ? { clientSecret: auth.clientSecret } : {}),
    ...(auth.clientMetadataUrl !== undefined ? { clientMetadataUrl: auth.clientMetadataUrl } : {}),
    ...(auth.scopes ? { scopes: auth.scopes } : {}),
    ...(auth.privateKey !== undefined ? { privateKey: auth.privateKey } : {}),
    ...(auth.signingAlgorithm !== undefined ? { signingAlgorithm: auth.signingAlgorithm } : {}),
    ...(auth.redirectPort !== undefined ? { redirectPort: auth.redirectPort } : {}),
    ...(options.openUrl ? { openUrl: options.openUrl } : {}),
  });
}

/** Secrets of an `auth` block, for redaction. */
export function authSecrets(entry: object): string[] {
  const value = (entry as { auth?: unknown }).auth;
  if (typeof value !== 'object' || value === null) return [];
  const auth = value as ServerAuthConfig;
  return [auth.clientSecret, auth.privateKey].filter(
    (value): value is string => typeof value === 'string' && value.length > 0,
  );
}

/** Where config validation reports problems. */
interface AuthValidationSink {
  issue(path: JsonPathSegment[], message: string): void;
}

const stringKeys = [
  'clientId',
  'clientSecret',
  'clientMetadataUrl',
  'privateKey',
  'signingAlgorithm',
] as const;
const knownAuthKeys = new Set<string>([...stringKeys, 'grantType', 'scopes', 'redirectPort']);

/** Validates an `auth` block; reports problems without quoting values (they may be secrets). */
export function validateServerAuth(
  value: unknown,
  path: JsonPathSegment[],
  sink: AuthValidationSink,
): ServerAuthConfig | false | undefined {
  if (value === false) return false;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    sink.issue(
      path,
      'expected an object { "grantType", "clientId", "clientSecret", "scopes", ... } or false.',
    );
    return undefined;
  }
  const raw = value as Record<string, unknown>;
  const out: ServerAuthConfig = {};
  let ok = true;
  for (const key of Object.keys(raw)) {
    if (!knownAuthKeys.has(key)) {
      sink.issue([...path, key], `unknown key. Known keys: ${[...knownAuthKeys].join(', ')}.`);
      ok = false;
    }
  }
  for (const key of stringKeys) {
    const item = raw[key];
    if (item === undefined) continue;
    if (typeof item !== 'string' || item.length === 0) {
      sink.issue([...path, key], 'expected a non-empty string.');
      ok = false;
    } else out[key] = item;
  }
  if (raw.grantType !== undefined) {
    if (raw.grantType === 'authorization_code' || raw.grantType === 'client_credentials')
      out.grantType = raw.grantType;
    else {
      sink.issue([...path, 'grantType'], `expected "authorization_code" or "client_credentials".`);
      ok = false;
    }
  }
  if (raw.scopes !== undefined) {
    if (
      Array.isArray(raw.scopes) &&
      raw.scopes.every((scope) => typeof scope === 'string' && scope.length > 0)
    ) {
      out.scopes = raw.scopes as string[];
    } else {
      sink.issue([...path, 'scopes'], 'expected an array of scope names, e.g. ["read", "write"].');
      ok = false;
    }
  }
  if (raw.redirectPort !== undefined) {
    const port = raw.redirectPort;
    if (typeof port === 'number' && Number.isInteger(port) && port >= 0 && port <= 65535)
      out.redirectPort = port;
    else {
      sink.issue([...path, 'redirectPort'], 'expected a port number (0-65535).');
      ok = false;
    }
  }
  if (out.grantType === 'client_credentials' && out.clientId === undefined) {
    sink.issue([...path, 'clientId'], 'the client_credentials grant needs a pre-registered clientId.');
    ok = false;
  }
  return ok ? out : undefined;
}

/** Expands `${VAR}` in the credentials of an `auth` block. */
export function expandServerAuth(
  auth: ServerAuthConfig,
  expand: (text: string, ...segments: JsonPathSegment[]) => string,
): ServerAuthConfig {
  const out: ServerAuthConfig = { ...auth };
  for (const key of stringKeys) {
    const value = auth[key];
    if (value !== undefined) out[key] = expand(value, 'auth', key);
  }
  return out;
}
