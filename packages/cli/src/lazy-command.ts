/**
 * A command whose code loads when it runs: the table holds its spec (name, help, flags) and a
 * loader, so that listing commands, printing help or running one command never imports another
 * command's dependencies (the server, tool selection's models, stores, OAuth).
 */
import type { CliCommand, CommandContext, CommandSpec } from './cli-command.js';

/** How a command runs, once its module is loaded. */
export type CommandRun = (context: CommandContext) => Promise<number>;

/** The command of `spec`; `load` imports its module on the first run. */
export function createLazyCommand(spec: CommandSpec, load: () => Promise<CommandRun>): CliCommand {
  return {
    ...spec,
    async run(context) {
      const run = await load();
      return run(context);
    },
  };
}
