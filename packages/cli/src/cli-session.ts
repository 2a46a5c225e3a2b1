/**
 * What several commands share: reading the merged config, choosing the file that `servers add`
 * edits, and connecting the configured servers with a spinner. Thin on purpose: each is one call
 * into @switchboard/client.
 */
import { join } from 'node:path';
import {
  type ConnectMcpOptions,
  connectMcp,
  createFileTokenStore,
  defaultTokenDirectory,
  loadConfig,
  type McpConnection,
  type McpServers,
  type SwitchboardConfig,
} from '@switchboard/client';
import { createConsoleLogger, type Logger, silentLogger } from '@switchboard/core';
import type { CommandContext } from './cli-command.js';
import { UsageError } from './cli-error.js';
import { homeOf } from './cli-home.js';
import { createProgress } from './cli-io.js';
import { cliLogLevelOf, showsLogLevel } from './cli-log-level.js';
import { cliVersion } from './cli-version.js';
import { commandStoreOf } from './registry-store-of.js';
import { didYouMean } from './suggest.js';

/** Loads the merged config (or the `--config` file alone). */
export function loadCliConfig(context: CommandContext): Promise<SwitchboardConfig> {
  return loadConfig({
    cwd: context.io.cwd,
    home: homeOf(context),
    env: context.io.env,
    ...(context.global.config ? { configFile: context.global.config } : {}),
    logger: cliLogger(context),
  });
}

/** The logger of a command run, on stderr: warnings and errors by default; `--verbose` adds debug, `--quiet` keeps errors. */
export function cliLogger(context: CommandContext): Logger {
  const level = cliLogLevelOf(context.io.env);
  if (level === 'silent') return silentLogger;
  return createConsoleLogger({ level, write: (line) => context.io.stderr.write(`${line}\n`) });
}

/** The file `servers add/remove/import` edit: `--config`, else the project's or the user's file. */
export function configPathForWrite(context: CommandContext, scope: unknown): string {
  if (context.global.config) return context.global.config;
  if (scope === undefined || scope === 'user') return join(homeOf(context), '.switchboard', 'mcp.json');
  if (scope === 'project') return join(context.io.cwd, '.switchboard', 'mcp.json');
  throw new UsageError(`--scope must be 'user' or 'project', not '${String(scope)}'.`);
}

/** Keeps only `names` of the config's servers; an unknown name is an error with suggestions. */
export function pickServers(config: SwitchboardConfig, names: string[]): SwitchboardConfig['mcpServers'] {
  if (names.length === 0) return config.mcpServers;
  const known = Object.keys(config.mcpServers);
  const picked: SwitchboardConfig['mcpServers'] = {};
  for (const name of names) {
    const entry = config.mcpServers[name];
    if (!entry) {
      throw new UsageError(
        `unknown server '${name}'.${didYouMean(name, known)} Configured servers: ${known.length ? known.join(', ') : 'none'} (see 'switchboard servers list').`,
      );
    }
    picked[name] = { ...entry, enabled: true };
  }
  return picked;
}

/**
 * Whether anything registered OpenTelemetry globals (a tracer or meter provider, a propagator):
 * the API keeps them under this symbol, for every copy of its major version 1.
 */
function openTelemetryRegistered(): boolean {
  return (globalThis as Record<symbol, unknown>)[Symbol.for('opentelemetry.js.api.1')] !== undefined;
}

/** Connects servers with a spinner; failures are kept in `status()` rather than thrown. */
export async function connectServers(
  context: CommandContext,
  servers: SwitchboardConfig['mcpServers'],
  options: ConnectMcpOptions = {},
): Promise<McpConnection> {
  const count = Object.values(servers).filter((entry) => entry.enabled !== false).length;
  const progress = createProgress(context.io, `connecting ${count} server${count === 1 ? '' : 's'}…`);
  // The connection's own lines (connected, reconnecting, …) only under --verbose: at the default
  // level a failed server is reported once, by the command, with what to try.
  const logger = showsLogLevel(context.io.env, 'info') ? cliLogger(context) : silentLogger;
  const stored =
    options.store === undefined && context.io.env.SWITCHBOARD_STORE !== 'off'
      ? // A broken store is worth a warning at the default level (the connection's lines are not).
        await commandStoreOf(context, cliLogger(context))
      : undefined;
  try {
    const connection = await connectMcp(servers as McpServers, {
      onError: 'skip',
      logger,
      // Traced only when an OpenTelemetry provider was registered before the command ran (by a
      // `node --import` preload: nothing else in a CLI process can register one); otherwise the
      // client does not load the API at all, ~50 modules on the way to the first server.
      ...(openTelemetryRegistered() ? {} : { telemetry: false }),
      clientInfo: { name: 'switchboard-cli', version: cliVersion() },
      // Every call the CLI makes is recorded, so `switchboard stats` and `tools --sort usage` see it.
      // A SQLite file is written as the command ends; without better-sqlite3 it is skipped (said
      // only under --verbose).
      ...(stored ? { store: stored.store } : {}),
      // Sign-ins made by `switchboard auth` live under the same home the command was given, or in
      // the shared database when replicas share one (PostgreSQL with a key).
      auth: {
        store:
          stored?.tokenStore ?? createFileTokenStore({ directory: defaultTokenDirectory(homeOf(context)) }),
      },
      ...options,
    });
    if (stored === undefined) return connection;
    // The store opened here is released with the connection (connectMcp leaves a given store open,
    // and a PostgreSQL pool left open would keep the command's process alive).
    const closeConnection = connection.close.bind(connection);
    connection.close = async () => {
      // What was recorded is written while the servers exit.
      const written = stored.flush?.();
      await closeConnection();
      await written;
      await stored.store.close();
    };
    return connection;
  } finally {
    progress.done();
  }
}

/** Writes one JSON document to stdout. */
export function printJson(context: CommandContext, value: unknown): void {
  context.io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
