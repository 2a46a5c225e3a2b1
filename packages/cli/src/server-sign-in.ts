/**
 * The OAuth sign-in of one remote server, as `switchboard auth <server>` runs it and
 * `switchboard ui` starts it from the page: read the server's challenge, forget old tokens, run
 * the authorization code flow with the loopback redirect, store the tokens where every command
 * finds them.
 */
import {
  createServerAuthProvider,
  parseBearerChallenge,
  runAuthorization,
  type ServerConfig,
  type StoredAuthorization,
  type TokenStore,
} from '@switchboard/client';
import { UsageError } from './cli-error.js';

/** Options of {@link signInServer}. */
export interface SignInOptions {
  /** The server's name in the config. */
  name: string;
  entry: ServerConfig;
  /** Where the tokens go. */
  store: TokenStore;
  /** Told the authorization URL the person opens. */
  openUrl(url: URL): void;
  /** The loopback port of the redirect. @default the entry's `auth.redirectPort`, else a free one */
  redirectPort?: number;
}

/**
 * Asks the server once without a token to read its challenge (resource metadata URL, scopes). The
 * request is the client's own first one, the 2026-07-28 `server/discover` probe: an authorization
 * wall answers it before any era matters, and a server of either era gets a request it knows how
 * to refuse.
 */
export async function probeChallenge(url: string): Promise<string | undefined> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'server/discover',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'server/discover',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'switchboard-cli', version: '0.0.0' },
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
      signal: AbortSignal.timeout(10_000),
    });
    await response.body?.cancel();
    return response.status === 401 ? (response.headers.get('www-authenticate') ?? undefined) : undefined;
  } catch {
    return undefined;
  }
}

/** Signs in to a remote server; resolves with the stored record once the tokens are stored. */
export async function signInServer(options: SignInOptions): Promise<StoredAuthorization | undefined> {
  const { name, entry, store } = options;
  if (!entry.url) {
    throw new UsageError(`server '${name}' has no "url": only remote (HTTP) servers sign in with OAuth.`);
  }
  const provider = createServerAuthProvider(
    name,
    options.redirectPort === undefined
      ? entry
      : {
          ...entry,
          auth: { ...(typeof entry.auth === 'object' ? entry.auth : {}), redirectPort: options.redirectPort },
        },
    { store, openUrl: options.openUrl },
  );
  if (!provider) {
    throw new UsageError(
      `server '${name}' has OAuth turned off (auth: false) or sends its own Authorization header.`,
    );
  }
  const challenge = parseBearerChallenge(await probeChallenge(entry.url));
  // A fresh sign-in: forget old tokens so that a refresh does not stand in for it.
  await provider.invalidateCredentials?.('tokens');
  await runAuthorization(provider, { serverUrl: new URL(entry.url), serverName: name, challenge });
  return store.load(entry.url);
}
