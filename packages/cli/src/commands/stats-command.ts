/** `switchboard stats [server...]`: calls, errors, latency and last use per server and tool, from the registry store. */
import type { CommandContext } from '../cli-command.js';
import { ExitCode } from '../cli-error.js';
import { formatTable } from '../cli-io.js';
import { printJson } from '../cli-session.js';
import { readUsage } from '../read-usage.js';
import { storePathOf } from '../registry-store-of.js';

const milliseconds = (value: number | undefined): string =>
  value === undefined ? '-' : value >= 100 ? `${Math.round(value)}ms` : `${value.toFixed(1)}ms`;

/** Runs `switchboard stats` (its flags and help: `statsCommandSpec`). */
export async function runStatsCommand(context: CommandContext): Promise<number> {
  const usage = await readUsage(storePathOf(context));
  const path = usage.location;
  const wanted = new Set(context.positionals);
  const keep = (server: string) => wanted.size === 0 || wanted.has(server);
  const tools = usage.tools.filter((tool) => keep(tool.server));
  const names = new Set([...usage.servers.map((server) => server.name), ...tools.map((tool) => tool.server)]);
  const servers = [...names]
    .filter(keep)
    .sort()
    .map((name) => {
      const stored = usage.servers.find((server) => server.name === name);
      const own = tools.filter((tool) => tool.server === name);
      const lastUsedAt = own
        .map((tool) => tool.lastUsedAt ?? '')
        .sort()
        .at(-1);
      return {
        name,
        transport: stored?.transport,
        calls: own.reduce((sum, tool) => sum + tool.calls, 0),
        errors: own.reduce((sum, tool) => sum + tool.errors, 0),
        ...(lastUsedAt ? { lastUsedAt } : {}),
        ...(stored?.lastConnect ? { lastConnect: stored.lastConnect } : {}),
        ...(stored?.serverInfo ? { serverInfo: stored.serverInfo } : {}),
      };
    });
  if (context.global.json) {
    printJson(context, { store: path, servers, tools });
    return ExitCode.ok;
  }
  if (servers.length === 0) {
    context.io.stdout.write(`No usage recorded yet in ${path}.\n`);
    return ExitCode.ok;
  }
  context.io.stdout.write(
    `${formatTable(
      ['server', 'calls', 'errors', 'last used', 'last connect'],
      servers.map((server) => [
        server.name,
        String(server.calls),
        String(server.errors),
        server.lastUsedAt ?? '-',
        server.lastConnect
          ? `${server.lastConnect.ok ? 'ok' : `failed (${server.lastConnect.errorCode ?? 'error'})`} ${server.lastConnect.at}`
          : '-',
      ]),
    )}\n\n`,
  );
  context.io.stdout.write(
    `${formatTable(
      ['tool', 'server', 'calls', 'errors', 'p50', 'p95', 'last used'],
      tools.map((tool) => [
        tool.publicName,
        tool.server,
        String(tool.calls),
        String(tool.errors),
        milliseconds(tool.latencyP50Ms),
        milliseconds(tool.latencyP95Ms),
        tool.lastUsedAt ?? '-',
      ]),
    )}\n`,
  );
  return ExitCode.ok;
}
