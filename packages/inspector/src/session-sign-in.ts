/**
 * An OAuth sign-in started from the page: the host runs it (its token store, its redirect), the
 * page gets the authorization URL as soon as it is known, and once the tokens are stored the
 * server is connected again with them. A failure becomes the server's last error.
 */
import type { McpConnection } from '@switchboard/client';
import type { InspectorHost } from './inspector-host.js';
import type { SessionServers } from './session-servers.js';
import type { UiSignIn } from './ui-api.js';
import { UiError, UiErrorCode } from './ui-error.js';

/** What a sign-in needs of the session. */
export interface SessionSignInOptions {
  servers: SessionServers;
  connection: McpConnection;
  /** The host's sign-in; undefined when it has none. */
  signIn: InspectorHost['signIn'];
  /** Opens the authorization URL for the person (the page gets it too). */
  openUrl?: (url: string) => void;
}

/** Starts the sign-in of `name`; answers once the authorization URL is known (or the sign-in is done). */
export function startSignIn(name: string, options: SessionSignInOptions): Promise<UiSignIn> {
  const { servers, connection, signIn } = options;
  const record = servers.recordOf(name);
  if (!record.entry.url) {
    throw new UiError({
      code: UiErrorCode.SignInUnavailable,
      message: `Server "${name}" is not a remote (HTTP) server: only those sign in with OAuth.`,
      context: { server: name },
    });
  }
  if (signIn === undefined) {
    throw new UiError({
      code: UiErrorCode.SignInUnavailable,
      message: `Server "${name}" cannot sign in from this page: the program running the inspector gives no sign-in (sign in where it keeps its tokens, e.g. 'switchboard auth ${name}').`,
      context: { server: name },
    });
  }
  return new Promise<UiSignIn>((resolve, reject) => {
    let answered = false;
    const answer = (result: UiSignIn) => {
      if (answered) return;
      answered = true;
      resolve(result);
    };
    signIn({
      name,
      entry: record.entry,
      openUrl: (url) => {
        options.openUrl?.(url.href);
        answer({ server: name, authorizationUrl: url.href, state: 'started' });
      },
    })
      .then(async () => {
        answer({ server: name, state: 'signed-in' });
        // The new tokens are used by a fresh connection.
        if (servers.isConnected(name)) await connection.reconnect(name).catch(() => {});
        else await servers.connect(name);
        servers.publish();
      })
      .catch((error: unknown) => {
        record.lastError = servers.failureOf(error);
        servers.publish();
        if (!answered) {
          answered = true;
          reject(error);
        }
      });
  });
}
