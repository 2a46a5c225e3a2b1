/**
 * The tool-selection part of `switchboard doctor`: the embedder and the vector index a ranking command
 * (`select`, `serve --select`) would use, found by starting a selector over no tools, and why each is
 * the one in use — the default, the variable that asked for it, or what made the requested one fall
 * back. Every reason comes from the error itself and is never empty.
 */
import { createToolRegistry, SwitchboardError, silentLogger } from '@switchboard/core';
import { createToolSelector, type EmbedderInfo, type VectorIndexInfo } from '@switchboard/tool-selection';
import type { CommandContext } from '../cli-command.js';
import { cliEmbedder, cliVectorIndex, embeddingModelVariable, vectorIndexVariable } from '../cli-embedder.js';
import type { createPalette } from '../cli-io.js';

/** What doctor reports of tool selection (the `selection` part of `doctor --json`). */
export interface SelectionReport {
  /** The embedder in use, and what chose it; absent when none could load. */
  embedder?: EmbedderInfo & { source: string };
  /** Why the dense signal is off (selection ranks by BM25 only), and its error code. */
  denseUnavailable?: { reason: string; code?: string };
  /** The vector index in use, and what chose it; absent when the dense signal is off. */
  index?: VectorIndexInfo & { source: string };
}

/** Starts a selector over an empty registry with the CLI's embedder and index, and reports them. */
export async function checkSelection(context: CommandContext): Promise<SelectionReport> {
  const variables = context.io.env;
  const modelVariable = variables[embeddingModelVariable];
  const indexVariable = variables[vectorIndexVariable];
  // Warnings would repeat what the report prints.
  const embedder = cliEmbedder(context, silentLogger);
  const index = cliVectorIndex(context);
  const selector = createToolSelector({
    registry: createToolRegistry(),
    embedder,
    ...(index === undefined ? {} : { index }),
    logger: silentLogger,
  });
  try {
    await selector.ready();
    const info = selector.info();
    const report: SelectionReport = {};
    if (info.embedder) {
      report.embedder = {
        ...info.embedder,
        source: modelVariable ? `${embeddingModelVariable}=${modelVariable}` : 'default',
      };
    }
    if (info.denseUnavailable !== undefined) {
      report.denseUnavailable = {
        reason: info.denseUnavailable,
        ...(info.denseUnavailableCode === undefined ? {} : { code: info.denseUnavailableCode }),
      };
    }
    if (info.index) {
      report.index = {
        ...info.index,
        source: indexVariable ? `${vectorIndexVariable}=${indexVariable}` : 'default',
      };
    }
    return report;
  } catch (error) {
    return {
      denseUnavailable: {
        reason: error instanceof Error ? error.message : String(error),
        ...(SwitchboardError.isInstance(error) ? { code: error.code } : {}),
      },
    };
  } finally {
    await selector.close();
    await embedder.close?.();
  }
}

/** The report's lines, under a "Tool selection:" heading. */
export function printSelection(
  out: (line?: string) => void,
  palette: ReturnType<typeof createPalette>,
  report: SelectionReport,
): void {
  out(palette.bold('Tool selection:'));
  const { embedder, index, denseUnavailable } = report;
  if (denseUnavailable) {
    out(
      `  embedder  ${palette.red('unavailable')}: ${denseUnavailable.reason}${denseUnavailable.code ? ` [${denseUnavailable.code}]` : ''}`,
    );
    out('            selection ranks by keywords (BM25) only');
  }
  if (embedder) {
    const why =
      embedder.fallbackReason !== undefined
        ? `instead of ${embedder.requestedModelId}`
        : embedder.source === 'default'
          ? `the offline model tool selection ships (default; ${embeddingModelVariable}=<hub id> for another)`
          : `asked for by ${embedder.source}`;
    out(`  embedder  ${embedder.modelId} (${embedder.dimensions} dims) — ${why}`);
    if (embedder.fallbackReason !== undefined) {
      out(
        `            ${palette.yellow('fallback')}: ${embedder.fallbackReason}${embedder.fallbackCode ? ` [${embedder.fallbackCode}]` : ''}`,
      );
    }
  }
  if (index) {
    const why =
      index.fallbackReason !== undefined
        ? `instead of ${index.requestedKind}`
        : index.source === 'default'
          ? `default; ${vectorIndexVariable}=hnsw for HNSW (hnswlib-node)`
          : `asked for by ${index.source}`;
    out(`  index     ${index.kind}${index.description ? `: ${index.description}` : ''} — ${why}`);
    if (index.fallbackReason !== undefined) {
      out(
        `            ${palette.yellow('fallback')}: ${index.fallbackReason}${index.fallbackCode ? ` [${index.fallbackCode}]` : ''}`,
      );
    }
  }
}
