/**
 * `switchboard ui`'s host of the inspector: the command's servers and how every command reaches
 * them — the merged config (or `--config`), the connection with the registry store and the
 * sign-ins under the command's home, `switchboard auth`'s OAuth sign-in, the store's usage of
 * earlier runs, and the embedder `select` ranks with.
 */
import { createFileTokenStore, defaultTokenDirectory } from '@switchboard/client';
import { silentLogger } from '@switchboard/core';
import type { InspectorHost } from '@switchboard/inspector';
import type { CommandContext } from './cli-command.js';
import { homeOf } from './cli-home.js';
import { showsLogLevel } from './cli-log-level.js';
import { cliLogger, connectServers, loadCliConfig } from './cli-session.js';
import { storePathOf } from './registry-store-of.js';
import { signInServer } from './server-sign-in.js';

/** The inspector's host for a `switchboard ui` run; reads the config. */
export async function cliInspectorHost(context: CommandContext): Promise<InspectorHost> {
  const config = await loadCliConfig(context);
  // The connection's own lines (connected, reconnecting, …) only under --verbose, as for every command.
  const logger = showsLogLevel(context.io.env, 'info') ? cliLogger(context) : silentLogger;
  return {
    servers: config.mcpServers,
    cwd: context.io.cwd,
    logger,
    connect: (servers, options) => connectServers(context, servers, options),
    async signIn({ name, entry, openUrl }) {
      await signInServer({
        name,
        entry,
        store: createFileTokenStore({ directory: defaultTokenDirectory(homeOf(context)) }),
        openUrl,
      });
    },
    async storedUsage() {
      if (context.io.env.SWITCHBOARD_STORE === 'off') return [];
      const { readUsage } = await import('./read-usage.js');
      return (await readUsage(storePathOf(context))).tools;
    },
    async embedder(embedderLogger) {
      const { cliEmbedder } = await import('./cli-embedder.js');
      return cliEmbedder(context, embedderLogger);
    },
  };
}
