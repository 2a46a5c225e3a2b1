import type { ParseArgsConfig } from 'node:util';
import type { CliIo } from './cli-io.js';

/** Options every command accepts. */
export interface GlobalOptions {
  /** Config file to use instead of discovery (`--config FILE`). */
  config?: string;
  /** Machine-readable output (`--json`). */
  json: boolean;
}

/** What a command's `run` receives. */
export interface CommandContext {
  io: CliIo;
  /** Positional arguments after the command (and sub-command) names. */
  positionals: string[];
  /** Arguments after a bare `--`, untouched (for `servers add name -- command args…`). */
  rest: string[];
  /** Parsed options: the command's own plus the global ones. */
  values: Record<string, string | boolean | string[] | undefined>;
  global: GlobalOptions;
}

/** One `switchboard` command. */
export interface CliCommand {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** Usage lines and option descriptions for `--help`. */
  help: string;
  options?: ParseArgsConfig['options'];
  /** Returns the exit code. */
  run(context: CommandContext): Promise<number>;
}
