/**
 * OAuth per server: the provider (from @switchboard/transports) that a remote server's transport
 * gets from the `auth` block of its entry, and that block's secrets for redaction. The block itself —
 * its shape, validation and `${VAR}` expansion — is config's (`config/server-auth-config.ts`).
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
  type OAuthProvider,
  type SecretSource,
  type TokenStore,
} from '@switchboard/transports';
import type { ServerAuthConfig, ServerAuthIdentityProviderConfig } from './config/server-auth-config.js';

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
