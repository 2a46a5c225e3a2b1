/** `switchboard tools [server]`: the namespaced tools of the configured servers; `tools diff | approve | reject`: tool trust. */
import type { CommandSpec } from '../cli-command.js';

const help = `Usage:
  switchboard tools [server...] [--sort name|usage] [--store FILE]
  switchboard tools diff [server] [tool] [--store FILE]
  switchboard tools approve <server> [tool] [--digest SHA] [--store FILE]
  switchboard tools reject <server> [tool] [--digest SHA] [--store FILE]

Connects the configured servers (or only those named) and lists their tools: namespaced name,
server, kind (read / write / exec / admin) and approval (run / ask / deny).

Tool trust: a tool whose definition changed since it was pinned (first use), a new or renamed tool
of a known server, and a tool with a blocking finding (hidden text, orders to the model,
shadowing, a look-alike name) are quarantined: hidden from the model and refused until approved.
  diff      what waits for review: each definition beside the pinned one, with the findings
  approve   pins the offered definition (all pending tools of the server without a tool name)
  reject    keeps it blocked and stops asking
Decisions live in the registry store (--store, SWITCHBOARD_STORE; a postgres:// store is shared by
gateway replicas, which pick up a decision within seconds).

Options:
  --sort usage   most called first, with a calls column (from the registry store, see 'switchboard stats')
  --store FILE   registry store (a file or a postgres:// URL)
  --digest SHA   approve or reject this definition only (sha256:…, as diff shows it)`;

/** The `tools` command's spec; `runToolsCommand` in tools-command.ts runs it. */
export const toolsCommandSpec: CommandSpec = {
  name: 'tools',
  summary: 'list the tools of the configured servers (name, server, kind, approval)',
  help,
  options: { sort: { type: 'string' }, store: { type: 'string' }, digest: { type: 'string' } },
  operands: 'server',
  optionValues: { sort: ['name', 'usage'], store: 'file' },
};
