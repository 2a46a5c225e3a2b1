/** `switchboard inspect <server>`: server info, capabilities, tools, resources and prompts. */
import type { CommandSpec } from '../cli-command.js';

const help = `Usage:
  switchboard inspect <server>

Connects one configured server and prints what it offers: server info and instructions,
capabilities, tools (with annotations), resources, resource templates and prompts.`;

/** The `inspect` command's spec; `runInspectCommand` in inspect-command.ts runs it. */
export const inspectCommandSpec: CommandSpec = {
  name: 'inspect',
  summary: "show a server's info, capabilities, tools, resources and prompts",
  help,
  operands: 'server',
};
