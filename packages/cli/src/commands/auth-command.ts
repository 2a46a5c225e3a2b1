/** `switchboard auth <server>` (sign in), `auth --list`, `auth --revoke <server>`. */
import { spawn } from 'node:child_process';
import {
  createFileTokenStore,
  createServerAuthProvider,
  defaultTokenDirectory,
  parseBearerChallenge,
  runAuthorization,
  type StoredAuthorization,
} from '@switchboard/client';
import type { CommandContext } from '../cli-command.js';
import { ExitCode, UsageError } from '../cli-error.js';
import { homeOf } from '../cli-home.js';
import { createPalette, formatTable } from '../cli-io.js';
import { loadCliConfig, pickServers, printJson } from '../cli-session.js';

/** Opens `url` in the default browser; failures are fine: the URL is printed too. */
function openInBrowser(url: string): void {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(command as string, args as string[], { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
  } catch {
    // No browser here: the printed URL is the way.
  }
}

function tokenStore(context: CommandContext) {
  return createFileTokenStore({ directory: defaultTokenDirectory(homeOf(context)) });
}

function describeRecord(record: StoredAuthorization, now: number): string {
  if (!record.tokens) return 'registered, not signed in';
  const refresh = record.tokens.refresh_token !== undefined ? ', refreshable' : '';
  if (record.expiresAt === undefined) return `signed in${refresh}`;
  if (record.expiresAt <= now) return `access token expired${refresh}`;
  return `signed in, token valid ${Math.round((record.expiresAt - now) / 60_000)} min${refresh}`;
}

/**
 * Asks the server once without a token to read its challenge (resource metadata URL, scopes). The
 * request is the client's own first one, the 2026-07-28 `server/discover` probe: an authorization
 * wall answers it before any era matters, and a server of either era gets a request it knows how
 * to refuse.
 */
async function probeChallenge(url: string): Promise<string | undefined> {
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

/** Runs `switchboard auth` (its flags and help: `authCommandSpec`). */
export async function runAuthCommand(context: CommandContext): Promise<number> {
  const palette = createPalette(context.io.stderr, context.io.env);
  const store = tokenStore(context);

  if (context.values.list === true) {
    const records = await store.list();
    const now = Date.now();
    if (context.global.json) {
      printJson(
        context,
        records.map((record) => ({
          server: record.serverName ?? null,
          url: record.serverUrl,
          status: describeRecord(record, now),
          scope: record.tokens?.scope ?? null,
          expiresAt: record.expiresAt ? new Date(record.expiresAt).toISOString() : null,
        })),
      );
      return ExitCode.ok;
    }
    if (records.length === 0) {
      context.io.stdout.write('No stored sign-ins. Sign in with: switchboard auth <server>\n');
      return ExitCode.ok;
    }
    context.io.stdout.write(
      `${formatTable(
        ['SERVER', 'URL', 'STATUS', 'SCOPE'],
        records.map((record) => [
          record.serverName ?? '?',
          record.serverUrl,
          describeRecord(record, now),
          record.tokens?.scope ?? '',
        ]),
      )}\n`,
    );
    return ExitCode.ok;
  }

  const revoke = context.values.revoke;
  if (typeof revoke === 'string') {
    const config = await loadCliConfig(context).catch(() => undefined);
    const configured = config?.mcpServers[revoke]?.url;
    const records = await store.list();
    const urls = new Set<string>(configured ? [configured] : []);
    for (const record of records) if (record.serverName === revoke) urls.add(record.serverUrl);
    if (urls.size === 0) {
      throw new UsageError(
        `no sign-in stored for '${revoke}'. See 'switchboard auth --list' for the servers with one.`,
      );
    }
    let removed = false;
    for (const url of urls) removed = (await store.delete(url)) || removed;
    context.io.stdout.write(
      removed
        ? `Forgot the sign-in of '${revoke}' (tokens and client registration).\n`
        : `No sign-in was stored for '${revoke}'.\n`,
    );
    return ExitCode.ok;
  }

  const [name, ...extra] = context.positionals;
  if (!name) throw new UsageError('auth needs a server name (or --list, or --revoke <server>).');
  if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}'.`);
  const port = context.values.port === undefined ? undefined : Number(context.values.port);
  if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65536)) {
    throw new UsageError('--port takes a port number (1-65535).');
  }
  const config = await loadCliConfig(context);
  const entry = pickServers(config, [name])[name];
  if (!entry?.url) {
    throw new UsageError(`server '${name}' has no "url": only remote (HTTP) servers sign in with OAuth.`);
  }
  const noBrowser = context.values['no-browser'] === true;
  const provider = createServerAuthProvider(
    name,
    port === undefined
      ? entry
      : { ...entry, auth: { ...(typeof entry.auth === 'object' ? entry.auth : {}), redirectPort: port } },
    {
      store,
      openUrl: (url) => {
        context.io.stderr.write(
          `Sign in to '${name}' in your browser${noBrowser ? '' : ' (opening it now)'}:\n\n  ${url.href}\n\nWaiting for the sign-in to finish…\n`,
        );
        if (!noBrowser) openInBrowser(url.href);
      },
    },
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
  const record = await store.load(entry.url);
  context.io.stdout.write(
    `${palette.green('Signed in')} to '${name}'${record?.tokens?.scope ? ` (scope: ${record.tokens.scope})` : ''}. Tokens are stored in ${defaultTokenDirectory(homeOf(context))}.\n`,
  );
  return ExitCode.ok;
}
