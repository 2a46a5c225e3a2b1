/** `switchboard completion bash|zsh|fish`: a shell completion script written from the command table. */
import type { CommandSpec } from '../cli-command.js';

const help = `Usage:
  switchboard completion bash|zsh|fish
  switchboard completion --list servers|tools

Prints a completion script for the shell: the commands, their sub-commands and flags, the values of
flags that take one of a few (or a file), the names of the configured servers, and the names of the
tools of the servers connected before (from the registry store: no server is started to complete).

Load it:
  bash   in ~/.bashrc:              eval "$(switchboard completion bash)"
  zsh    in ~/.zshrc, after compinit: eval "$(switchboard completion zsh)"
  fish   in ~/.config/fish/config.fish: switchboard completion fish | source

Options:
  --list servers|tools   print the names the scripts complete, one a line (what they call)`;

/** The `completion` command's spec; `runCompletionCommand` in completion-command.ts runs it. */
export const completionCommandSpec: CommandSpec = {
  name: 'completion',
  summary: 'print a shell completion script (bash, zsh or fish)',
  help,
  options: { list: { type: 'string' } },
  subcommands: [{ name: 'bash' }, { name: 'zsh' }, { name: 'fish' }],
  optionValues: { list: ['servers', 'tools'] },
};
