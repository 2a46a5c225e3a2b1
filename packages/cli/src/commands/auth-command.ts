/** `switchboard auth <server>` (sign in), `auth --list`, `auth --revoke <server>`. */
import { createFileTokenStore, defaultTokenDirectory, type StoredAuthorization } from '@switchboard/client';
import type { CommandContext } from '../cli-command.js';
import { ExitCode, UsageError } from '../cli-error.js';
import { homeOf } from '../cli-home.js';
import { createPalette, formatTable } from '../cli-io.js';
import { loadCliConfig, pickServers, printJson } from '../cli-session.js';
import { openInBrowser } from '../open-in-browser.js';
import { signInServer } from '../server-sign-in.js';

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
  const record = await signInServer({
    name,
    entry,
    store,
    ...(port === undefined ? {} : { redirectPort: port }),
    openUrl: (url) => {
      context.io.stderr.write(
        `Sign in to '${name}' in your browser${noBrowser ? '' : ' (opening it now)'}:\n\n  ${url.href}\n\nWaiting for the sign-in to finish…\n`,
      );
      if (!noBrowser) openInBrowser(url.href);
    },
  });
  context.io.stdout.write(
    `${palette.green('Signed in')} to '${name}'${record?.tokens?.scope ? ` (scope: ${record.tokens.scope})` : ''}. Tokens are stored in ${defaultTokenDirectory(homeOf(context))}.\n`,
  );
  return ExitCode.ok;
}
