/** `switchboard call <tool> --args '<json>'`: validates, asks for approval, calls, prints the result. */
import type { CommandSpec } from '../cli-command.js';

const help = `Usage:
  switchboard call <tool> [--args '<json>'] [--yes] [--timeout MS]

Calls a tool by its namespaced name (see 'switchboard tools'). Arguments are validated against the
tool's schema first. Tools that the approval policy marks 'ask' prompt for confirmation; --yes skips
the prompt (needed when stdin is not a terminal). While the tool runs, its progress (n/total and the
server's message) and the server's log messages are shown on stderr; progress keeps the deadline
(--timeout, default 60000) alive. Prints the wrapped result; exit code 1 when the tool reports an
error.`;

/** The `call` command's spec; `runCallCommand` in call-command.ts runs it. */
export const callCommandSpec: CommandSpec = {
  name: 'call',
  summary: 'call a tool with JSON arguments and print the result',
  help,
  options: {
    args: { type: 'string' },
    yes: { type: 'boolean', short: 'y', default: false },
    timeout: { type: 'string' },
  },
  operands: 'tool',
};
