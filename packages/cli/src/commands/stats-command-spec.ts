/** `switchboard stats [server...]`: calls, errors, latency and last use per server and tool, from the registry store. */
import type { CommandSpec } from '../cli-command.js';

const help = `Usage:
  switchboard stats [server...] [--store FILE|postgres://…] [--json]

Shows what the registry store recorded: per server its calls, errors and last connection, and per
tool its calls, errors, latency (p50 / p95 over the most recent calls) and when it was last used.

Options:
  --store FILE   registry store to read: a SQLite file, or the postgres:// database replicas share
                 (default: $SWITCHBOARD_STORE, else ~/.switchboard/registry.db)`;

/** The `stats` command's spec; `runStatsCommand` in stats-command.ts runs it. */
export const statsCommandSpec: CommandSpec = {
  name: 'stats',
  summary: 'usage per server and tool: calls, errors, latency, last used',
  help,
  options: { store: { type: 'string' } },
  operands: 'server',
  optionValues: { store: 'file' },
};
