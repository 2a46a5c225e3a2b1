/**
 * OAuth per server: the `auth` block of a server entry, and the provider (from
 * @switchboard/transports) that a remote server's transport gets from it.
 */
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { SwitchboardError } from '@switchboard/core';
import {
  AuthorizationErrorCode,
  createFileTokenStore,
  createOAuthProvider,
  defaultTokenDirectory,
  type IdentityProviderOptions,
  type OAuthGrantType,
  type OAuthProvider,
  type SecretSource,
  type TokenStore,
} from '@switchboard/transports';
import type { JsonPathSegment } from './config/jsonc-document.js';

/** DPoP signing algorithms a config may name (RFC 9449 §11.6: asymmetric only). */
const dpopAlgorithms = [
  'ES256',
  'ES384',
  'ES512',
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'EdDSA',
] as const;

/** A DPoP signing algorithm of the config. */
export type DpopAlgorithm = (typeof dpopAlgorithms)[number];

/** The enterprise identity provider of `grantType: "enterprise_managed"` (SEP-990, ID-JAG). */
export interface ServerAuthIdentityProviderConfig {
  /** The IdP's issuer URL (its token endpoint is discovered). One of `issuer`, `tokenEndpoint`. */
  issuer?: string;
  /** The IdP's token endpoint. */
  tokenEndpoint?: string;
  /** This client's id at the IdP. */
  clientId: string;
  /** This client's secret at the IdP (`${VAR}` expands). Never logged. */
  clientSecret?: string;
  /** The user's ID token from the IdP (`${VAR}` expands). Never logged. One of `idToken`, `idTokenFile`. */
  idToken?: string;
  /** A file holding the user's ID token, read at every token request (it may be refreshed in place). */
  idTokenFile?: string;
}

/** The `auth` block of a remote server's entry. `false` turns OAuth off for the server. */
export interface ServerAuthConfig {
  /**
   * How this client gets its tokens: `authorization_code` (sign in with `switchboard auth <server>`),
   * `client_credentials` (headless), `workload_identity` (the workload's identity token, RFC 7523
   * JWT bearer) or `enterprise_managed` (an ID-JAG from the enterprise IdP). @default 'authorization_code'
   */
  grantType?: OAuthGrantType;
  /** A pre-registered client id (`${VAR}` expands). Without one: a client-id metadata document or dynamic registration. */
  clientId?: string;
  /** The pre-registered client's secret (`${VAR}` expands). Never logged. */
  clientSecret?: string;
  /**
   * The issuer of the authorization server the pre-registered client belongs to; its credentials
   * go to no other (SEP-2352). @default the first one it is used with, remembered in the token store
   */
  issuer?: string;
  /** HTTPS URL of this client's metadata document, used as client id where the server supports it. */
  clientMetadataUrl?: string;
  /** Scopes to ask for when the server names none. */
  scopes?: string[];
  /** PEM private key for `private_key_jwt` (`${VAR}` expands). Never logged. */
  privateKey?: string;
  /** Algorithm of `privateKey`. @default 'RS256' */
  signingAlgorithm?: string;
  /** `workload_identity`: the workload's identity JWT (`${VAR}` expands). Never logged. One of `assertion`, `assertionFile`. */
  assertion?: string;
  /** `workload_identity`: a file holding the workload's identity JWT (e.g. a projected service-account token), read at every token request. */
  assertionFile?: string;
  /** `enterprise_managed`: the enterprise identity provider. */
  identityProvider?: ServerAuthIdentityProviderConfig;
  /** DPoP (RFC 9449): sender-constrained tokens; `{ "alg": "ES384" }` picks the algorithm. @default false */
  dpop?: boolean | { alg?: DpopAlgorithm };
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

/** A secret read from a file at each use; the error names the server, the key and the file, never the content. */
function secretFile(serverName: string, key: string, file: string): SecretSource {
  return async () => {
    try {
      return await readFile(file, 'utf8');
    } catch (cause) {
      throw new SwitchboardError({
        code: AuthorizationErrorCode.AuthFailed,
        message: `MCP server "${serverName}": cannot read auth.${key} ${file} (${(cause as NodeJS.ErrnoException).code ?? (cause as Error).message}). Check the path and that this process may read it.`,
        context: { server: serverName, file },
        cause,
      });
    }
  };
}

function identityProviderOf(
  serverName: string,
  config: ServerAuthIdentityProviderConfig,
): IdentityProviderOptions {
  return {
    clientId: config.clientId,
    ...(config.issuer !== undefined ? { issuer: config.issuer } : {}),
    ...(config.tokenEndpoint !== undefined ? { tokenEndpoint: config.tokenEndpoint } : {}),
    ...(config.clientSecret !== undefined ? { clientSecret: config.clientSecret } : {}),
    idToken:
      config.idTokenFile !== undefined
        ? secretFile(serverName, 'identityProvider.idTokenFile', config.idTokenFile)
        : (config.idToken ?? ''),
  };
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
    ...(auth.issuer !== undefined ? { issuer: auth.issuer } : {}),
    ...(auth.clientMetadataUrl !== undefined ? { clientMetadataUrl: auth.clientMetadataUrl } : {}),
    ...(auth.scopes ? { scopes: auth.scopes } : {}),
    ...(auth.privateKey !== undefined ? { privateKey: auth.privateKey } : {}),
    ...(auth.signingAlgorithm !== undefined ? { signingAlgorithm: auth.signingAlgorithm } : {}),
    ...(auth.assertionFile !== undefined
      ? { assertion: secretFile(name, 'assertionFile', auth.assertionFile) }
      : auth.assertion !== undefined
        ? { assertion: auth.assertion }
        : {}),
    ...(auth.identityProvider ? { identityProvider: identityProviderOf(name, auth.identityProvider) } : {}),
    ...(auth.dpop !== undefined ? { dpop: auth.dpop } : {}),
    ...(auth.redirectPort !== undefined ? { redirectPort: auth.redirectPort } : {}),
    ...(options.openUrl ? { openUrl: options.openUrl } : {}),
  });
}

/** Secrets of an `auth` block, for redaction. */
export function authSecrets(entry: object): string[] {
  const value = (entry as { auth?: unknown }).auth;
  if (typeof value !== 'object' || value === null) return [];
  const auth = value as ServerAuthConfig;
  return [
    auth.clientSecret,
    auth.privateKey,
    auth.assertion,
    auth.identityProvider?.clientSecret,
    auth.identityProvider?.idToken,
  ].filter((value): value is string => typeof value === 'string' && value.length > 0);
}

/** Where config validation reports problems. */
interface AuthValidationSink {
  issue(path: JsonPathSegment[], message: string): void;
}

const grantTypes: readonly OAuthGrantType[] = [
  'authorization_code',
  'client_credentials',
  'workload_identity',
  'enterprise_managed',
];
const stringKeys = [
  'clientId',
  'clientSecret',
  'issuer',
  'clientMetadataUrl',
  'privateKey',
  'signingAlgorithm',
  'assertion',
  'assertionFile',
] as const;
const knownAuthKeys = new Set<string>([
  ...stringKeys,
  'grantType',
  'scopes',
  'identityProvider',
  'dpop',
  'redirectPort',
]);
const identityProviderStringKeys = [
  'issuer',
  'tokenEndpoint',
  'clientId',
  'clientSecret',
  'idToken',
  'idTokenFile',
] as const;
/** Keys whose values are URLs (checked when they hold no `${VAR}`). */
const urlKeys = new Set<string>(['issuer', 'clientMetadataUrl', 'tokenEndpoint']);

/** `${NAME}` as config files spell a variable, for examples in messages. */
const configVariable = (name: string) => `$${'{'}${name}}`;

function isUrlOrVariable(value: string): boolean {
  if (/\$\{/.test(value)) return true;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** Copies the non-empty string keys of `raw` into `out`, reporting the others; true when all were fine. */
function copyStrings<K extends string>(
  raw: Record<string, unknown>,
  keys: readonly K[],
  out: Partial<Record<K, string>>,
  path: JsonPathSegment[],
  sink: AuthValidationSink,
): boolean {
  let ok = true;
  for (const key of keys) {
    const item = raw[key];
    if (item === undefined) continue;
    if (typeof item !== 'string' || item.length === 0) {
      sink.issue([...path, key], 'expected a non-empty string.');
      ok = false;
    } else if (urlKeys.has(key) && !isUrlOrVariable(item)) {
      sink.issue([...path, key], 'expected an http(s) URL, e.g. "https://auth.example.com".');
      ok = false;
    } else out[key] = item;
  }
  return ok;
}

function validateIdentityProvider(
  value: unknown,
  path: JsonPathSegment[],
  sink: AuthValidationSink,
): ServerAuthIdentityProviderConfig | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    sink.issue(
      path,
      'expected an object { "issuer" or "tokenEndpoint", "clientId", "idToken" or "idTokenFile" }.',
    );
    return undefined;
  }
  const raw = value as Record<string, unknown>;
  const known = new Set<string>(identityProviderStringKeys);
  let ok = true;
  for (const key of Object.keys(raw)) {
    if (!known.has(key)) {
      sink.issue([...path, key], `unknown key. Known keys: ${identityProviderStringKeys.join(', ')}.`);
      ok = false;
    }
  }
  const out: Partial<ServerAuthIdentityProviderConfig> = {};
  ok = copyStrings(raw, identityProviderStringKeys, out, path, sink) && ok;
  if (raw.clientId === undefined) {
    sink.issue([...path, 'clientId'], "the identity provider needs this client's clientId there.");
    ok = false;
  }
  if ((raw.issuer === undefined) === (raw.tokenEndpoint === undefined)) {
    sink.issue(path, 'give exactly one of "issuer" (its token endpoint is discovered) or "tokenEndpoint".');
    ok = false;
  }
  if ((raw.idToken === undefined) === (raw.idTokenFile === undefined)) {
    sink.issue(
      path,
      `give exactly one of "idToken" (e.g. "${configVariable('ID_TOKEN')}") or "idTokenFile".`,
    );
    ok = false;
  }
  return ok ? (out as ServerAuthIdentityProviderConfig) : undefined;
}

function validateDpop(
  value: unknown,
  path: JsonPathSegment[],
  sink: AuthValidationSink,
): ServerAuthConfig['dpop'] | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const raw = value as Record<string, unknown>;
    const unknown = Object.keys(raw).filter((key) => key !== 'alg');
    if (unknown.length === 0 && raw.alg === undefined) return {};
    if (unknown.length === 0 && (dpopAlgorithms as readonly unknown[]).includes(raw.alg)) {
      return { alg: raw.alg as DpopAlgorithm };
    }
    if (unknown.length > 0) {
      sink.issue([...path, unknown[0] as string], 'unknown key. Known keys: alg.');
      return undefined;
    }
    sink.issue([...path, 'alg'], `expected one of ${dpopAlgorithms.join(', ')}.`);
    return undefined;
  }
  sink.issue(path, 'expected true, false or { "alg": "ES256" }.');
  return undefined;
}

/** Checks that the keys a grant needs are there and the keys of other grants are not. */
function checkGrantKeys(
  out: ServerAuthConfig,
  raw: Record<string, unknown>,
  path: JsonPathSegment[],
  sink: AuthValidationSink,
): boolean {
  const grant = out.grantType ?? 'authorization_code';
  let ok = true;
  const needsClientId = grant !== 'authorization_code';
  if (needsClientId && raw.clientId === undefined) {
    sink.issue([...path, 'clientId'], `the ${grant} grant needs a pre-registered clientId.`);
    ok = false;
  }
  const assertionKeys = ['assertion', 'assertionFile'].filter((key) => raw[key] !== undefined);
  if (grant === 'workload_identity') {
    if (assertionKeys.length !== 1) {
      sink.issue(
        path,
        `the workload_identity grant needs exactly one of "assertion" (e.g. "${configVariable('WORKLOAD_JWT')}") or "assertionFile" (a token file the platform keeps fresh).`,
      );
      ok = false;
    }
  } else if (assertionKeys.length > 0) {
    sink.issue(
      [...path, assertionKeys[0] as string],
      'only the workload_identity grant sends an assertion; set "grantType": "workload_identity" or remove it.',
    );
    ok = false;
  }
  if (grant === 'enterprise_managed') {
    if (raw.identityProvider === undefined) {
      sink.issue(
        [...path, 'identityProvider'],
        'the enterprise_managed grant needs the enterprise identity provider ({ "issuer", "clientId", "idToken" }).',
      );
      ok = false;
    }
  } else if (raw.identityProvider !== undefined) {
    sink.issue(
      [...path, 'identityProvider'],
      'only the enterprise_managed grant uses an identity provider; set "grantType": "enterprise_managed" or remove it.',
    );
    ok = false;
  }
  return ok;
}

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
  ok = copyStrings(raw, stringKeys, out, path, sink) && ok;
  if (raw.grantType !== undefined) {
    if ((grantTypes as readonly unknown[]).includes(raw.grantType))
      out.grantType = raw.grantType as OAuthGrantType;
    else {
      sink.issue(
        [...path, 'grantType'],
        `expected one of ${grantTypes.map((grant) => `"${grant}"`).join(', ')}.`,
      );
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
  if (raw.identityProvider !== undefined) {
    const identityProvider = validateIdentityProvider(
      raw.identityProvider,
      [...path, 'identityProvider'],
      sink,
    );
    if (identityProvider) out.identityProvider = identityProvider;
    else ok = false;
  }
  if (raw.dpop !== undefined) {
    const dpop = validateDpop(raw.dpop, [...path, 'dpop'], sink);
    if (dpop !== undefined) out.dpop = dpop;
    else ok = false;
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
  if (out.grantType !== undefined || raw.grantType === undefined)
    ok = checkGrantKeys(out, raw, path, sink) && ok;
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
  if (auth.identityProvider) {
    const identityProvider: ServerAuthIdentityProviderConfig = { ...auth.identityProvider };
    for (const key of identityProviderStringKeys) {
      const value = auth.identityProvider[key];
      if (value !== undefined) identityProvider[key] = expand(value, 'auth', 'identityProvider', key);
    }
    out.identityProvider = identityProvider;
  }
  return out;
}
