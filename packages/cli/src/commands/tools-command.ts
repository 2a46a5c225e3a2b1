/** `switchboard tools [server]`: the namespaced tools of the configured servers. */
import { classifyToolKind } from '@switchboard/core';
import type { CommandContext } from '../cli-command.js';
import { ExitCode, UsageError } from '../cli-error.js';
import { formatTable } from '../cli-io.js';
import { connectServers, loadCliConfig, pickServers, printJson } from '../cli-session.js';
import { readUsage } from '../read-usage.js';
import { storePathOf } from '../registry-store-of.js';
import { decideToolApproval } from '../tool-approval.js';
import { reportFailedServers } from './server-failures.js';

/**
 * Orders names by their code units: the same order on every machine, and no ICU collator to set up
 * (the first `localeCompare` of a process costs ~6 ms, more than the rest of the table).
 */
function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Runs `switchboard tools` (its flags and help: `toolsCommandSpec`). */
export async function runToolsCommand(context: CommandContext): Promise<number> {
  const [action] = context.positionals;
  if (action === 'diff' || action === 'approve' || action === 'reject') {
    const { runToolsTrust } = await import('./tools-trust.js');
    return runToolsTrust(context, action, context.positionals.slice(1));
  }
  const sort = context.values.sort ?? 'name';
  if (sort !== 'name' && sort !== 'usage') {
    throw new UsageError(`--sort takes 'name' or 'usage', not '${String(sort)}'.`);
  }
  const calls = new Map<string, number>();
  if (sort === 'usage') {
    for (const usage of (await readUsage(storePathOf(context))).tools) {
      calls.set(`${usage.server}\u0000${usage.tool}`, usage.calls);
    }
  }
  const callsOf = (tool: { server: string; originalName: string }) =>
    calls.get(`${tool.server}\u0000${tool.originalName}`) ?? 0;
  const config = await loadCliConfig(context);
  const servers = pickServers(config, context.positionals);
  if (Object.keys(servers).length === 0) {
    throw new UsageError("no servers configured. Add one with 'switchboard servers add'.");
  }
  const connection = await connectServers(context, servers);
  try {
    const rows = connection.registry
      .list()
      .sort(
        (a, b) =>
          (sort === 'usage' ? callsOf(b) - callsOf(a) : 0) ||
          compareCodeUnits(a.server, b.server) ||
          compareCodeUnits(a.name, b.name),
      )
      .map((tool) => {
        const approval = decideToolApproval(tool, config.mcpServers[tool.server]);
        return {
          name: tool.name,
          server: tool.server,
          originalName: tool.originalName,
          kind: classifyToolKind(tool),
          approval: approval.decision === 'allow' ? 'run' : approval.decision,
          approvalReason: approval.reason,
          description: tool.description,
          ...(sort === 'usage' ? { calls: callsOf(tool) } : {}),
        };
      });
    const failed = reportFailedServers(context, connection.status());
    if (context.global.json) {
      printJson(context, { tools: rows, status: connection.status() });
    } else {
      context.io.stdout.write(
        sort === 'usage'
          ? `${formatTable(
              ['name', 'server', 'kind', 'approval', 'calls'],
              rows.map((row) => [row.name, row.server, row.kind, row.approval, String(row.calls ?? 0)]),
            )}\n`
          : `${formatTable(
              ['name', 'server', 'kind', 'approval'],
              rows.map((row) => [row.name, row.server, row.kind, row.approval]),
            )}\n`,
      );
    }
    return failed > 0 && rows.length === 0 ? ExitCode.failure : ExitCode.ok;
  } finally {
    await connection.close();
  }
}
