/**
 * The bash completion script of a command table. It walks the words typed so far (skipping flags
 * and their values, stopping at `--`), finds the command and sub-command, then offers flags,
 * commands, sub-commands, a flag's values, or — for arguments that name configured servers or
 * tools — what `switchboard completion --list servers|tools` prints (with the `--config` typed on
 * the line, if any). Needs bash 4 and no bash-completion package.
 */
import {
  type CompletionFlag,
  type CompletionTable,
  flagWords,
  listNameOf,
  valueFlagWords,
} from './completion-table.js';

/** Words for a shell list: space-separated. */
function words(list: readonly string[]): string {
  return list.join(' ');
}

function optionValueArms(command: string, flags: readonly CompletionFlag[]): string[] {
  return flags.flatMap((flag) => {
    if (flag.values === undefined) return [];
    const value = typeof flag.values === 'string' ? `@${flag.values}` : words(flag.values);
    const pattern = [flag.long, ...(flag.short ? [flag.short] : [])]
      .map((name) => `${command}:${name}`)
      .join('|');
    return [`    ${pattern}) echo '${value}' ;;`];
  });
}

/** The script `switchboard completion bash` prints. */
export function toBashCompletion(table: CompletionTable): string {
  const commandArms = table.commands.map(
    (command) =>
      `    ${command.name}) _sb_flags=' ${words(flagWords(command.flags))} '; _sb_value_flags=' ${words(
        valueFlagWords(command.flags),
      )} '; _sb_subcommands='${words(command.subcommands.map((subcommand) => subcommand.name))}' ;;`,
  );
  const operandArms = table.commands.flatMap((command) => [
    ...command.subcommands
      .filter((subcommand) => subcommand.operands)
      .map(
        (subcommand) =>
          `    ${command.name}:${subcommand.name}) echo ${listNameOf(subcommand.operands ?? 'server')} ;;`,
      ),
    ...(command.operands && command.subcommands.length === 0
      ? [`    ${command.name}:*) echo ${listNameOf(command.operands)} ;;`]
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
  const commandNames = words([...table.commands.map((command) => command.name), 'help']);
  return `# bash completion for switchboard, written by \`switchboard completion bash\`.
# Load it from ~/.bashrc:  eval "$(switchboard completion bash)"
# or save it as ~/.local/share/bash-completion/completions/switchboard.

# Sets _sb_flags, _sb_value_flags (flags that take a value) and _sb_subcommands of command $1.
_switchboard_command_words() {
  case "$1" in
${commandArms.join('\n')}
    *) return 1 ;;
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
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="" command="" subcommand="" config="" word values kind i skip=0
  local _sb_flags=' ${words(flagWords(table.globalFlags))} ' _sb_value_flags=' ${words(valueFlagWords(table.globalFlags))} ' _sb_subcommands=''
  COMPREPLY=()
  (( COMP_CWORD > 0 )) && prev="\${COMP_WORDS[COMP_CWORD-1]}"
  for (( i = 1; i < COMP_CWORD; i++ )); do
    word="\${COMP_WORDS[i]}"
    if (( skip )); then skip=0; continue; fi
    # After a bare --, a server's own command line: the shell's default completion.
    [[ $word == -- ]] && return 0
    [[ $word == --config ]] && config="\${COMP_WORDS[i+1]}"
    if [[ $word == -* ]]; then
      [[ $word != *=* && $_sb_value_flags == *" $word "* ]] && skip=1
      continue
    fi
    if [[ -z $command ]]; then
      command="$word"
      _switchboard_command_words "$command" || return 0
    elif [[ -z $subcommand && -n $_sb_subcommands ]]; then
      subcommand="$word"
    fi
  done
  if [[ $prev == -* && $_sb_value_flags == *" $prev "* ]]; then
    values="$(_switchboard_option_values "$command" "$prev")"
    case "$values" in
      @file) compopt -o filenames 2>/dev/null; COMPREPLY=( $(compgen -f -- "$cur") ) ;;
      @directory) compopt -o filenames 2>/dev/null; COMPREPLY=( $(compgen -d -- "$cur") ) ;;
      ?*) COMPREPLY=( $(compgen -W "$values" -- "$cur") ) ;;
    esac
    return 0
  fi
  if [[ $cur == -* ]]; then
    COMPREPLY=( $(compgen -W "$_sb_flags" -- "$cur") )
  elif [[ -z $command ]]; then
    COMPREPLY=( $(compgen -W '${commandNames}' -- "$cur") )
  elif [[ -n $_sb_subcommands && -z $subcommand ]]; then
    COMPREPLY=( $(compgen -W "$_sb_subcommands" -- "$cur") )
  else
    kind="$(_switchboard_operands "$command" "$subcommand")"
    [[ -n $kind ]] && COMPREPLY=( $(compgen -W "$(switchboard \${config:+--config "$config"} completion --list "$kind" 2>/dev/null)" -- "$cur") )
  fi
  return 0
}

complete -o default -F _switchboard switchboard
`;
}
