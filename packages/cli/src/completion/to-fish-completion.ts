/**
 * The fish completion script of a command table: fish completions are declarations (`complete
 * -c switchboard …`), one per command, sub-command, flag and argument kind, each under a condition
 * on what was typed before. Configured servers and known tools come from `switchboard completion
 * --list servers|tools`, with the `--config` typed on the line, if any.
 */
import { type CompletionFlag, type CompletionTable, listNameOf } from './completion-table.js';

/** `text` as one fish single-quoted word. */
function quoted(text: string): string {
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

function flagLine(condition: string | undefined, flag: CompletionFlag): string {
  const parts = ['complete -c switchboard'];
  if (condition !== undefined) parts.push(`-n ${quoted(condition)}`);
  if (flag.short) parts.push(`-s ${flag.short.slice(1)}`);
  parts.push(`-l ${flag.long.slice(2)}`);
  if (flag.takesValue) {
    if (flag.values === 'file') parts.push('-r -F');
    else if (flag.values === 'directory') parts.push("-x -a '(__fish_complete_directories)'");
    else if (flag.values !== undefined) parts.push(`-x -a ${quoted(flag.values.join(' '))}`);
    else parts.push('-x');
  }
  return parts.join(' ');
}

/** The script `switchboard completion fish` prints. */
export function toFishCompletion(table: CompletionTable): string {
  const lines: string[] = [];
  const names = table.commands.map((command) => command.name);
  for (const command of table.commands) {
    lines.push(
      `complete -c switchboard -n __fish_use_subcommand -a ${command.name} -d ${quoted(command.summary)}`,
    );
  }
  lines.push(`complete -c switchboard -n __fish_use_subcommand -a help -d ${quoted('show help')}`);
  for (const flag of table.globalFlags) lines.push(flagLine(undefined, flag));
  for (const command of table.commands) {
    const seen = `__fish_seen_subcommand_from ${command.name}`;
    lines.push('', `# ${command.name}`);
    for (const flag of command.flags.filter((candidate) => !table.globalFlags.includes(candidate))) {
      lines.push(flagLine(seen, flag));
    }
    if (command.subcommands.length > 0) {
      const subcommandNames = command.subcommands.map((subcommand) => subcommand.name).join(' ');
      lines.push(
        `complete -c switchboard -n ${quoted(`${seen}; and not __fish_seen_subcommand_from ${subcommandNames}`)} -a ${quoted(subcommandNames)}`,
      );
      for (const subcommand of command.subcommands.filter((candidate) => candidate.operands)) {
        lines.push(
          `complete -c switchboard -n ${quoted(`${seen}; and __fish_seen_subcommand_from ${subcommand.name}`)} -a ${quoted(
            `(__switchboard_list ${listNameOf(subcommand.operands ?? 'server')})`,
          )}`,
        );
      }
    } else if (command.operands) {
      lines.push(
        `complete -c switchboard -n ${quoted(seen)} -a ${quoted(`(__switchboard_list ${listNameOf(command.operands)})`)}`,
      );
    }
  }
  return `# fish completion for switchboard, written by \`switchboard completion fish\`.
# Load it:  switchboard completion fish | source
# or save it as ~/.config/fish/completions/switchboard.fish

# Configured servers or known tools ($argv[1]), with the --config typed on the line, if any.
function __switchboard_list
    set -l words (commandline -opc)
    set -l config
    set -l at (contains -i -- --config $words)
    if test -n "$at"; and test (count $words) -gt $at
        set config --config $words[(math $at + 1)]
    end
    switchboard $config completion --list $argv[1] 2>/dev/null
end

# Arguments are not files unless a flag or command says so.
complete -c switchboard -f
# Commands: ${names.join(', ')}.
${lines.join('\n')}
`;
}
