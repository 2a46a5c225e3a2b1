/**
 * The zsh completion script of a command table: the same walk as the bash script (see
 * to-bash-completion.ts), in zsh's own completion system, with each command's summary shown beside
 * its name. Loads with `eval` after `compinit`, or as an autoloaded `_switchboard` file in $fpath.
 */
import {
  type CompletionFlag,
  type CompletionTable,
  flagWords,
  listNameOf,
  valueFlagWords,
} from './completion-table.js';

/** `text` as one zsh single-quoted word. */
function quoted(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

function optionValueArms(command: string, flags: readonly CompletionFlag[]): string[] {
  return flags.flatMap((flag) => {
    if (flag.values === undefined) return [];
    const value = typeof flag.values === 'string' ? `@${flag.values}` : flag.values.join(' ');
    const pattern = [flag.long, ...(flag.short ? [flag.short] : [])]
      .map((name) => `${command}:${name}`)
      .join('|');
    return [`    (${pattern}) print -r -- ${quoted(value)} ;;`];
  });
}

/** The script `switchboard completion zsh` prints. */
export function toZshCompletion(table: CompletionTable): string {
  const commandArms = table.commands.map(
    (command) =>
      `    (${command.name}) _sb_flags=(${flagWords(command.flags).join(' ')}); _sb_value_flags=(${valueFlagWords(
        command.flags,
      ).join(
        ' ',
      )}); _sb_subcommands=(${command.subcommands.map((subcommand) => subcommand.name).join(' ')}) ;;`,
  );
  const operandArms = table.commands.flatMap((command) => [
    ...command.subcommands
      .filter((subcommand) => subcommand.operands)
      .map(
        (subcommand) =>
          `    (${command.name}:${subcommand.name}) print -r -- ${listNameOf(subcommand.operands ?? 'server')} ;;`,
      ),
    ...(command.operands && command.subcommands.length === 0
      ? [`    (${command.name}:*) print -r -- ${listNameOf(command.operands)} ;;`]
      : []),
  ]);
  const valueArms = [
    ...table.commands.flatMap((command) =>
      optionValueArms(
        command.name,
        command.flags.filter((flag) => !table.globalFlags.includes(flag)),
      ),
    ),
    ...optionValueArms('*', table.globalFlags),
  ];
  // _describe reads `name:description`; a colon in the name would need escaping (names have none).
  const described = [
    ...table.commands.map((command) => `${command.name}:${command.summary}`),
    'help:show help',
  ];
  return `#compdef switchboard
# zsh completion for switchboard, written by \`switchboard completion zsh\`.
# Load it from ~/.zshrc, after compinit:  eval "$(switchboard completion zsh)"
# or save it as _switchboard in a folder of your $fpath.

# Sets _sb_flags, _sb_value_flags (flags that take a value) and _sb_subcommands of command $1.
_switchboard_command_words() {
  case $1 in
${commandArms.join('\n')}
    (*) return 1 ;;
  esac
}

# What the arguments of command $1, sub-command $2 name: servers, tools, or nothing.
_switchboard_operands() {
  case "$1:$2" in
${operandArms.join('\n')}
  esac
}

# The values of flag $2 of command $1: words, or @file / @directory.
_switchboard_option_values() {
  case "$1:$2" in
${valueArms.join('\n')}
  esac
}

_switchboard() {
  local cur=\${words[CURRENT]} prev=\${words[CURRENT-1]} command='' subcommand='' config='' word values kind
  local -a _sb_flags _sb_value_flags _sb_subcommands _sb_commands names
  local -i i skip=0
  _sb_flags=(${flagWords(table.globalFlags).join(' ')})
  _sb_value_flags=(${valueFlagWords(table.globalFlags).join(' ')})
  _sb_subcommands=()
  for (( i = 2; i < CURRENT; i++ )); do
    word=\${words[i]}
    if (( skip )); then skip=0; continue; fi
    # After a bare --, a server's own command line: files.
    if [[ $word == -- ]]; then _files; return; fi
    [[ $word == --config ]] && config=\${words[i+1]}
    if [[ $word == -* ]]; then
      [[ $word != *=* ]] && (( \${_sb_value_flags[(Ie)$word]} )) && skip=1
      continue
    fi
    if [[ -z $command ]]; then
      command=$word
      _switchboard_command_words $command || return 1
    elif [[ -z $subcommand ]] && (( \${#_sb_subcommands} )); then
      subcommand=$word
    fi
  done
  if [[ $prev == -* ]] && (( \${_sb_value_flags[(Ie)$prev]} )); then
    values=$(_switchboard_option_values "$command" "$prev")
    case $values in
      (@file) _files ;;
      (@directory) _files -/ ;;
      (?*) compadd -- \${=values} ;;
    esac
    return
  fi
  if [[ $cur == -* ]]; then
    compadd -- $_sb_flags
  elif [[ -z $command ]]; then
    _sb_commands=(
${described.map((entry) => `      ${quoted(entry)}`).join('\n')}
    )
    _describe -t commands 'switchboard command' _sb_commands
  elif (( \${#_sb_subcommands} )) && [[ -z $subcommand ]]; then
    compadd -- $_sb_subcommands
  else
    kind=$(_switchboard_operands "$command" "$subcommand")
    if [[ -n $kind ]]; then
      names=(\${(f)"$(switchboard \${config:+--config "$config"} completion --list $kind 2>/dev/null)"})
      (( \${#names} )) && compadd -- $names
    fi
  fi
}

if [[ \${funcstack[1]} == _switchboard ]]; then
  _switchboard "$@"
else
  compdef _switchboard switchboard
fi
`;
}
