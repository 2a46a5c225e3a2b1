/**
 * `switchboard tools diff | approve | reject`: reviewing quarantined tools. The servers are
 * connected (so each listing is reviewed now, against the pins in the store), then the pending
 * definitions are shown beside the pinned ones, or approved or rejected in the store — where a
 * running `switchboard serve` or `switchboard ui` on the same store picks the decision up.
 */
import type { ConnectionTrust, ToolTrustDiff } from '@switchboard/client';
import type { CommandContext } from '../cli-command.js';
import { ExitCode, UsageError } from '../cli-error.js';
import { createPalette } from '../cli-io.js';
import { connectServers, loadCliConfig, pickServers, printJson } from '../cli-session.js';
import { storePathOf } from '../registry-store-of.js';
import { reportFailedServers } from './server-failures.js';

/** Runs one trust action on `operands` (`[server] [tool]`). */
export async function runToolsTrust(
  context: CommandContext,
  action: 'diff' | 'approve' | 'reject',
  operands: string[],
): Promise<number> {
  const [server, tool, ...extra] = operands;
  if (extra.length > 0)
    throw new UsageError(`tools ${action} takes a server and a tool, not ${operands.length} names.`);
  if (action !== 'diff' && server === undefined) {
    throw new UsageError(`tools ${action} needs a server: switchboard tools ${action} <server> [tool].`);
  }
  if (context.io.env.SWITCHBOARD_STORE === 'off' && action !== 'diff') {
    throw new UsageError(
      `tools ${action} records the decision in the registry store, and SWITCHBOARD_STORE=off turns it off; unset it or pass --store.`,
    );
  }
  const digest = typeof context.values.digest === 'string' ? context.values.digest : undefined;
  const config = await loadCliConfig(context);
  const servers = pickServers(config, server === undefined ? [] : [server]);
  const connection = await connectServers(context, servers);
  try {
    reportFailedServers(context, connection.status());
    if (action === 'diff') return await printDiffs(context, connection.trust, connection.servers, tool);
    const target = {
      server: server as string,
      ...(tool === undefined ? {} : { tool }),
      ...(digest === undefined ? {} : { digest }),
    };
    const decided =
      action === 'approve'
        ? await connection.trust.approve(target, { by: 'cli' })
        : await connection.trust.reject(target, { by: 'cli' });
    if (context.global.json)
      printJson(context, { [action === 'approve' ? 'approved' : 'rejected']: decided });
    else if (decided.length === 0) {
      context.io.stderr.write(
        `Nothing pending for ${tool === undefined ? `server "${server}"` : `tool "${tool}" of "${server}"`}${digest === undefined ? '' : ` with digest ${digest}`}. See 'switchboard tools diff'.\n`,
      );
    } else {
      for (const record of decided) {
        context.io.stdout.write(
          `${action === 'approve' ? 'approved' : 'rejected'} ${record.server}/${record.tool} ${record.digest}\n`,
        );
      }
      context.io.stdout.write(`(recorded in ${storePathOf(context)})\n`);
    }
    return decided.length > 0 ? ExitCode.ok : ExitCode.failure;
  } finally {
    await connection.close();
  }
}

async function printDiffs(
  context: CommandContext,
  trust: ConnectionTrust,
  servers: readonly string[],
  tool: string | undefined,
): Promise<number> {
  const diffs: ToolTrustDiff[] = [];
  for (const server of servers)
    diffs.push(...(await trust.diff({ server, ...(tool === undefined ? {} : { tool }) })));
  if (context.global.json) {
    printJson(context, {
      pending: diffs.map(({ record, pinned, diff }) => ({ record, pinned, patch: diff.patch })),
    });
    return ExitCode.ok;
  }
  const palette = createPalette(context.io.stdout, context.io.env);
  const out = (line = '') => context.io.stdout.write(`${line}\n`);
  if (diffs.length === 0) {
    out('Nothing waits for review: every listed tool is trusted.');
    return ExitCode.ok;
  }
  for (const { record, pinned, diff } of diffs) {
    const why =
      record.change === 'changed'
        ? `changed (${record.parts?.join(', ') ?? 'definition'})`
        : record.change === 'renamed'
          ? `renamed from "${record.previousName}"`
          : (record.change ?? 'pending');
    out(palette.bold(`${record.server}/${record.tool} — ${why} — ${record.digest}`));
    const blocking = (record.findings ?? []).filter((finding) => finding.severity !== 'info');
    for (const finding of blocking) {
      out(
        `  ${palette.red(finding.severity.padEnd(8))} ${finding.code} in ${finding.field}: ${finding.excerpt}`,
      );
    }
    if (pinned === undefined) out('  (no pinned definition: new tool)');
    for (const line of diff.patch.split('\n').slice(2)) {
      out(line.startsWith('+') ? palette.green(line) : line.startsWith('-') ? palette.red(line) : line);
    }
    out(
      `  approve: switchboard tools approve ${record.server} ${record.tool}   reject: switchboard tools reject ${record.server} ${record.tool}`,
    );
    out();
  }
  return ExitCode.ok;
}
