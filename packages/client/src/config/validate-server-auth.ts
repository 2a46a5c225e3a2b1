/**
 * Validation of a server entry's `auth` block: unknown keys, wrong types, the keys each grant needs
 * and those it must not have. Reports through the config validator's sink and never quotes a value,
 * since most of them are secrets.
 */
import type { OAuthGrantType } from '@switchboard/transports';
import type { JsonPathSegment } from './jsonc-document.js';
import {
  authStringKeys,
  type DpopAlgorithm,
  dpopAlgorithms,
  identityProviderStringKeys,
  type ServerAuthConfig,
  type ServerAuthIdentityProviderConfig,
} from './server-auth-config.js';

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
const knownAuthKeys = new Set<string>([
  ...authStringKeys,
  'grantType',
  'scopes',
  'identityProvider',
  'dpop',
  'redirectPort',
]);
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
  ok = copyStrings(raw, authStringKeys, out, path, sink) && ok;
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
