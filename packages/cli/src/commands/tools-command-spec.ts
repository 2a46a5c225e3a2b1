/** `switchboard tools [server]`: the namespaced tools of the configured servers. */
import type { CommandSpec } from '../cli-command.js';

const help = `Usage:
  switchboard tools [server...] [--sort name|usage] [--store FILE]

Connects the configured servers (or only those named) and lists their tools: namespaced name,
server, kind (read / write / exec / admin) and approval (run / ask / deny).

Options:
  --sort usage   most called first, with a calls column (from the registry store, see 'switchboard stats')
  --store FILE   registry store to read for --sort usage`;

/** The `tools` command's spec; `runToolsCommand` in tools-command.ts runs it. */
export const toolsCommandSpec: CommandSpec = {
  name: 'tools',
  summary: 'list the tools of the configured servers (name, server, kind, approval)',
  help,
  options: { sort: { type: 'string' }, store: { type: 'string' } },
  operands: 'server',
  optionValues: { sort: ['name', 'usage'], store: 'file' },
};
