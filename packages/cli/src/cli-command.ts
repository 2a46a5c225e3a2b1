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
  /** The command table the run was dispatched from (what `completion` describes; given, not imported, so the table and its commands never import each other). */
  commands: readonly CliCommand[];
}

/** What a positional argument names, so that shell completion can offer the configured ones. */
export type OperandKind = 'server' | 'tool';

/** What a string option's value is, for completion: one of a fixed list, a file or a folder. */
export type OptionValues = readonly string[] | 'file' | 'directory';

/** A sub-command (`servers list`, `servers add`, …): its name and what its arguments name. */
export interface SubcommandSpec {
  name: string;
  /** What its arguments name, for completion. */
  operands?: OperandKind;
}

/**
 * What the CLI knows of a command without loading its module: enough for the command list, the
 * command's `--help`, parsing its flags and completing them in a shell. Kept apart from the code
 * that runs the command, so that `switchboard --help` (and every other command) loads none of it.
 */
export interface CommandSpec {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** Usage lines and option descriptions for `--help`. */
  help: string;
  options?: ParseArgsConfig['options'];
  /** The first positional chooses one of these (none: the command has no sub-commands). */
  subcommands?: readonly SubcommandSpec[];
  /** What the positional arguments name (after the sub-command, if any), for completion. */
  operands?: OperandKind;
  /** What the string options' values are, by option name, where completion can offer them. */
  optionValues?: Readonly<Record<string, OptionValues>>;
}

/** One `switchboard` command. */
export interface CliCommand extends CommandSpec {
  /** Returns the exit code. */
  run(context: CommandContext): Promise<number>;
}
