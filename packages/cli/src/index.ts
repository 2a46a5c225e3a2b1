/**
 * Public API of @switchboard/cli: the command runner, for embedding the CLI or testing it.
 * Any new export added here becomes public API. Use named exports, not wildcards.
 */
export type { CliCommand, CommandContext, GlobalOptions } from './cli-command.js';
export { ExitCode, UsageError } from './cli-error.js';
export type { CliIo, TextSink } from './cli-io.js';
export { commands } from './commands/index.js';
export {
  formatNginxAddress,
  type NginxAddress,
  type NginxConfigOptions,
  renderNginxConfig,
} from './render-nginx-config.js';
export { runCli } from './run-cli.js';
export { suggestNames } from './suggest.js';
