/**
 * `switchboard completion bash|zsh|fish` prints the script; `completion --list servers|tools` the
 * names the scripts offer. Printing a script loads nothing but the CLI's own files (a shell runs it
 * at every start); listing reads the config, and for tools the registry store's catalogue — the
 * tools recorded when their servers last connected — so that completing never starts a server.
 */
import type { CommandContext } from '../cli-command.js';
import { toCompletionTable } from '../completion/completion-table.js';
import { toBashCompletion } from '../completion/to-bash-completion.js';
import { toFishCompletion } from '../completion/to-fish-completion.js';
import { toZshCompletion } from '../completion/to-zsh-completion.js';
import { ExitCode } from '../exit-code.js';
import { didYouMean } from '../suggest.js';

const scripts = { bash: toBashCompletion, zsh: toZshCompletion, fish: toFishCompletion } as const;

/** A usage error; cli-error (and with it core) loads only when there is one. */
async function usageError(message: string): Promise<Error> {
  const { UsageError } = await import('../cli-error.js');
  return new UsageError(message);
}

/** Runs `switchboard completion` (its flags and help: `completionCommandSpec`). */
export async function runCompletionCommand(context: CommandContext): Promise<number> {
  if (context.values.list !== undefined) {
    const { printCompletionNames } = await import('../completion/completion-names.js');
    return printCompletionNames(context, context.values.list);
  }
  const [shell, ...extra] = context.positionals;
  if (!shell) throw await usageError('completion needs a shell: bash, zsh or fish.');
  if (extra.length) throw await usageError(`unexpected argument '${extra[0]}'.`);
  if (!(shell in scripts)) {
    throw await usageError(
      `no completion for '${shell}'.${didYouMean(shell, Object.keys(scripts))} Shells: bash, zsh, fish.`,
    );
  }
  context.io.stdout.write(scripts[shell as keyof typeof scripts](toCompletionTable(context.commands)));
  return ExitCode.ok;
}
