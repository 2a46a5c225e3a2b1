/**
 * What the shell completion scripts know, derived from the command table: each command's name,
 * summary, sub-commands, flags (and which take a value, and what value), and what its arguments
 * name. The three scripts (`to-bash-completion.ts`, `to-zsh-completion.ts`,
 * `to-fish-completion.ts`) are written from this one shape, so a new command or flag needs no
 * change here.
 */
import type { CommandSpec, OperandKind, OptionValues } from '../cli-command.js';
import { globalOptions, globalOptionValues } from '../global-options.js';

/** One flag of a command (or a global one). */
export interface CompletionFlag {
  /** `--name`. */
  long: string;
  /** `-x`, when the flag has a short form. */
  short?: string;
  /** Whether the next word is the flag's value. */
  takesValue: boolean;
  /** What the value is, where completion can offer it. */
  values?: OptionValues;
}

/** One command, as the scripts complete it. */
export interface CompletionCommand {
  name: string;
  summary: string;
  /** Sub-command names, and what the arguments after each name. */
  subcommands: Array<{ name: string; operands?: OperandKind }>;
  /** What the arguments name when there are no sub-commands. */
  operands?: OperandKind;
  /** The command's own flags, then the global ones. */
  flags: CompletionFlag[];
}

/** The whole table. */
export interface CompletionTable {
  commands: CompletionCommand[];
  /** The flags every command takes (and that may come before the command). */
  globalFlags: CompletionFlag[];
}

type OptionsOf = NonNullable<CommandSpec['options']>;

function flagsOf(options: OptionsOf, values: Readonly<Record<string, OptionValues>> = {}): CompletionFlag[] {
  return Object.entries(options).map(([name, option]) => ({
    long: `--${name}`,
    ...(option.short ? { short: `-${option.short}` } : {}),
    takesValue: option.type === 'string',
    ...(values[name] !== undefined ? { values: values[name] } : {}),
  }));
}

/** The completion table of `commands`. */
export function toCompletionTable(commands: readonly CommandSpec[]): CompletionTable {
  const globalFlags = flagsOf(globalOptions as OptionsOf, globalOptionValues);
  return {
    globalFlags,
    commands: commands.map((command) => ({
      name: command.name,
      summary: command.summary,
      subcommands: (command.subcommands ?? []).map((subcommand) => ({
        name: subcommand.name,
        ...(subcommand.operands ? { operands: subcommand.operands } : {}),
      })),
      ...(command.operands ? { operands: command.operands } : {}),
      flags: [...flagsOf(command.options ?? {}, command.optionValues), ...globalFlags],
    })),
  };
}

/** Every spelling of the flags (long and short). */
export function flagWords(flags: readonly CompletionFlag[]): string[] {
  return flags.flatMap((flag) => (flag.short ? [flag.long, flag.short] : [flag.long]));
}

/** The spellings of the flags that take a value. */
export function valueFlagWords(flags: readonly CompletionFlag[]): string[] {
  return flagWords(flags.filter((flag) => flag.takesValue));
}

/** The list `switchboard completion --list` prints for what an argument names. */
export function listNameOf(kind: OperandKind): 'servers' | 'tools' {
  return kind === 'server' ? 'servers' : 'tools';
}
