/**
 * `switchboard completion bash|zsh|fish` prints the script; `completion --list servers|tools` the
 * names the scripts offer. Printing a script loads nothing but the CLI's own files (a shell runs it
 * at every start); listing reads the config, and for tools the registry store's catalogue — the
 * tools recorded when their servers last connected — so that completing never starts a server.
 */
import { existsSync } from 'node:fs';
import type { CliCommand, CommandContext } from '../cli-command.js';
import { ExitCode, UsageError } from '../cli-error.js';
import { toCompletionTable } from '../completion/completion-table.js';
import { toBashCompletion } from '../completion/to-bash-completion.js';
import { toFishCompletion } from '../completion/to-fish-completion.js';
import { toZshCompletion } from '../completion/to-zsh-completion.js';
import { isPostgresLocation, postgresTargetOf, storePathOf } from '../registry-store-of.js';
import { didYouMean } from '../suggest.js';

const scripts = { bash: toBashCompletion, zsh: toZshCompletion, fish: toFishCompletion } as const;

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

async function listNames(context: CommandContext, what: unknown): Promise<number> {
  if (what !== 'servers' && what !== 'tools') {
    throw new UsageError(`--list takes 'servers' or 'tools', not '${String(what)}'.`);
  }
  const { loadCliConfig } = await import('../cli-session.js');
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

/** Runs `switchboard completion` (its flags and help: `completionCommandSpec`). */
export async function runCompletionCommand(context: CommandContext): Promise<number> {
  if (context.values.list !== undefined) return listNames(context, context.values.list);
  const [shell, ...extra] = context.positionals;
  if (!shell) throw new UsageError('completion needs a shell: bash, zsh or fish.');
  if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}'.`);
  if (!(shell in scripts)) {
    throw new UsageError(
      `no completion for '${shell}'.${didYouMean(shell, Object.keys(scripts))} Shells: bash, zsh, fish.`,
    );
  }
  const commands: readonly CliCommand[] = context.commands ?? (await import('./index.js')).commands;
  context.io.stdout.write(scripts[shell as keyof typeof scripts](toCompletionTable(commands)));
  return ExitCode.ok;
}
