/**
 * The options every command takes, before or after the command name: parsed with the command's
 * own by the runner, listed by `--help`, completed by the shell scripts of `completion`.
 */
import type { OptionValues } from './cli-command.js';

/** The global options, in `parseArgs` form. */
export const globalOptions = {
  config: { type: 'string' },
  json: { type: 'boolean', default: false },
  verbose: { type: 'boolean', default: false },
  quiet: { type: 'boolean', short: 'q', default: false },
  'no-color': { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** What the global options' values are, for completion. */
export const globalOptionValues: Readonly<Record<string, OptionValues>> = { config: 'file' };

/** The global options in `--help`. */
export const globalHelp = `Global options (before or after the command):
  --config FILE   use FILE instead of discovering ~/.switchboard/mcp.json and .switchboard/mcp.json
  --json          machine-readable output
  --verbose       debug lines on stderr (sets SWITCHBOARD_LOG=debug for the run)
  -q, --quiet     errors only on stderr: no warnings, hints or progress (SWITCHBOARD_LOG=error)
  --no-color      no colour (as NO_COLOR=1 does)
  -h, --help      help for a command`;
