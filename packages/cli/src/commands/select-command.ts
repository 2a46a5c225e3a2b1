/** `switchboard select "<query>"`: the tools tool selection would pick, with scores and token saving. */
import { createToolSelector } from '@switchboard/tool-selection';
import type { CommandContext } from '../cli-command.js';
import { cliEmbedder, cliVectorIndex } from '../cli-embedder.js';
import { ExitCode, UsageError } from '../cli-error.js';
import { createProgress, formatTable } from '../cli-io.js';
import { cliLogger, connectServers, loadCliConfig, printJson } from '../cli-session.js';
import { reportFailedServers } from './server-failures.js';

/** Runs `switchboard select` (its flags and help: `selectCommandSpec`). */
export async function runSelectCommand(context: CommandContext): Promise<number> {
  const query = context.positionals.join(' ').trim();
  if (!query) throw new UsageError('select needs a query, e.g. switchboard select "read a file".');
  const k = context.values.k === undefined ? 8 : Number(context.values.k);
  if (!Number.isInteger(k) || k < 1) throw new UsageError('-k takes a whole number ≥ 1.');
  const signals = context.values.signals ?? 'hybrid';
  if (signals !== 'hybrid' && signals !== 'dense' && signals !== 'lexical') {
    throw new UsageError('--signals must be hybrid, dense or lexical.');
  }

  // Before any server starts: a bad variable is a usage error with nothing to close.
  const embedder = cliEmbedder(context, cliLogger(context));
  const index = cliVectorIndex(context);
  const config = await loadCliConfig(context);
  const connection = await connectServers(context, config.mcpServers);
  const selector = createToolSelector({
    registry: connection.registry,
    embedder,
    ...(index === undefined ? {} : { index }),
    logger: cliLogger(context),
  });
  try {
    reportFailedServers(context, connection.status());
    const progress = createProgress(context.io, `indexing ${connection.registry.size} tools…`);
    await selector.ready();
    progress.done();
    const selected = await selector.select(query, { k, signals, alwaysInclude: [] });
    const usage = selector.tokenUsage(selected);
    const info = selector.info();
    if (context.global.json) {
      printJson(context, {
        query,
        embedder: info.embedder,
        denseUnavailable: info.denseUnavailable,
        tools: selected.map((entry) => ({
          name: entry.name,
          server: entry.tool.server,
          score: entry.score,
          signals: entry.signals,
          description: entry.tool.description,
        })),
        tokens: usage,
      });
      return ExitCode.ok;
    }
    const rows = selected.map((entry, index) => [
      String(index + 1),
      entry.name,
      entry.score.toFixed(3),
      [
        entry.signals.dense
          ? `dense #${entry.signals.dense.rank} (${entry.signals.dense.score.toFixed(2)})`
          : '',
        entry.signals.lexical ? `bm25 #${entry.signals.lexical.rank}` : '',
        entry.signals.boost ? `boost +${entry.signals.boost}` : '',
      ]
        .filter(Boolean)
        .join(', '),
    ]);
    context.io.stdout.write(`${formatTable(['#', 'tool', 'score', 'signals'], rows)}\n\n`);
    const percent = usage.totalTokens ? Math.round((100 * usage.savedTokens) / usage.totalTokens) : 0;
    context.io.stdout.write(
      `Tokens: ${usage.selectedTokens} for these ${usage.selectedTools} tools vs ${usage.totalTokens} for all ${usage.totalTools} (${percent}% saved).\n`,
    );
    if (info.denseUnavailable) context.io.stdout.write(`Dense signal off: ${info.denseUnavailable}\n`);
    else if (info.embedder) context.io.stdout.write(`Embedder: ${info.embedder.modelId}\n`);
    return ExitCode.ok;
  } finally {
    await selector.close();
    await connection.close();
  }
}
