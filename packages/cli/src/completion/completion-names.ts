/**
 * The names `switchboard completion --list servers|tools` prints for the shell scripts: the
 * configured servers, and the tools of configured servers the registry store recorded when they
 * last connected (completing never starts a server).
 */
import { existsSync } from 'node:fs';
import type { CommandContext } from '../cli-command.js';
import { ExitCode, UsageError } from '../cli-error.js';
import { loadCliConfig } from '../cli-session.js';
import { isPostgresLocation, postgresTargetOf, storePathOf } from '../registry-store-of.js';

/** The public names of the tools the store at `location` knows; none when there is no store yet. */
async function storedToolNames(location: string): Promise<Array<{ server: string; name: string }>> {
  if (isPostgresLocation(location)) {
    const { openPostgresStore } = await import('@switchboard/client/postgres-store');
    const store = await openPostgresStore(postgresTargetOf(location));
    try {
      return (await store.listTools()).map((tool) => ({ server: tool.server, name: tool.publicName }));
    } finally {
      await store.close();
    }
  }
  // Completing must not create a store where none was.
  if (!existsSync(location)) return [];
  const { openSqliteStore } = await import('@switchboard/client/sqlite-store');
  const store = await openSqliteStore({ path: location });
  try {
    return (await store.listTools()).map((tool) => ({ server: tool.server, name: tool.publicName }));
  } finally {
    await store.close();
  }
}

/** Prints the configured servers, or the known tools of configured servers, one a line. */
export async function printCompletionNames(context: CommandContext, what: unknown): Promise<number> {
  if (what !== 'servers' && what !== 'tools') {
    throw new UsageError(`--list takes 'servers' or 'tools', not '${String(what)}'.`);
  }
  const [config, tools] = await Promise.all([
    loadCliConfig(context),
    what === 'tools' ? storedToolNames(storePathOf(context)) : [],
  ]);
  // Tools of servers no longer configured are left out.
  const names =
    what === 'servers'
      ? Object.keys(config.mcpServers)
      : tools.filter((tool) => config.mcpServers[tool.server] !== undefined).map((tool) => tool.name);
  if (names.length > 0) context.io.stdout.write(`${[...new Set(names)].sort().join('\n')}\n`);
  return ExitCode.ok;
}
