/**
 * Public API of @switchboard/cli: the command runner, for embedding the CLI or testing it.
 * Any new export added here becomes public API. Use named exports, not wildcards.
 * `renderNginxConfig` and its types are @switchboard/server's (its scale bench renders the config
 * too), re-exported here for code that imports them from the cli.
 */
export {
  formatNginxAddress,
  type NginxAddress,
  type NginxConfigOptions,
  renderNginxConfig,
} from '@switchboard/server';
export type {
  CliCommand,
  CommandContext,
  CommandSpec,
  GlobalOptions,
  OperandKind,
  OptionValues,
  SubcommandSpec,
} from './cli-command.js';
export { ExitCode, UsageError } from './cli-error.js';
export type { CliIo, TextSink } from './cli-io.js';
export { commands } from './commands/index.js';
export { runCli } from './run-cli.js';
export { suggestNames } from './suggest.js';
