/**
 * The selection playground: the tool selector `select` and `serve --select` use, over the
 * session's connected tools (it follows the registry as servers come and go) or over a dataset
 * folder in the benchmark format (`tools.jsonl`, one tool a line). The ranking is longer than `k`
 * so the page can draw the line: which tools made it, which fell under `minScore` or past `k`.
 * Tool selection (and its embedder) loads at the first query, not with the page.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createToolRegistry, type Logger, type ToolRegistry } from '@switchboard/core';
import type { Embedder, SelectedTool, ToolSelector } from '@switchboard/tool-selection';
import type { UiRankedTool, UiSelection, UiSelectRequest } from './ui-api.js';
import { UiError, UiErrorCode } from './ui-error.js';

/** The selector's documented default `minScore` (`SelectOptions.minScore`): nothing is cut by score. */
export const defaultMinScore = 0;

/** The default `k` of `select` (`SelectOptions.k`). */
export const defaultK = 8;

/** Options of {@link createUiSelector}. */
export interface UiSelectorOptions {
  /** Makes the embedder, at the first query (the host's, or tool selection's from its cache only). */
  embedder(): Embedder | Promise<Embedder>;
  /** Where a relative dataset folder is resolved. */
  cwd: string;
  /** The session's registry (its connected tools). */
  registry: ToolRegistry;
  logger: Logger;
}

/** The playground's selector. */
export interface UiSelector {
  select(request: UiSelectRequest): Promise<UiSelection>;
  close(): Promise<void>;
}

interface Source {
  selector: ToolSelector;
  registry: ToolRegistry;
}

/** Creates the playground (nothing loads until the first query). */
export function createUiSelector(options: UiSelectorOptions): UiSelector {
  let embedder: Promise<Embedder> | undefined;
  let live: Promise<Source> | undefined;
  let dataset: { path: string; source: Promise<Source> } | undefined;

  const embedderOf = () => {
    embedder ??= Promise.resolve().then(() => options.embedder());
    return embedder;
  };
  const sourceOver = async (registry: ToolRegistry): Promise<Source> => {
    const { createToolSelector } = await import('@switchboard/tool-selection');
    const selector = createToolSelector({ registry, embedder: await embedderOf(), logger: options.logger });
    return { selector, registry };
  };
  const sourceOf = (request: UiSelectRequest): Promise<Source> => {
    if (request.dataset === undefined || request.dataset === '') {
      live ??= sourceOver(options.registry);
      return live;
    }
    const path = resolve(options.cwd, request.dataset);
    if (dataset?.path !== path) {
      const previous = dataset?.source;
      // Read before anything is replaced: a bad folder leaves the previous dataset in place.
      const registry = datasetRegistry(path);
      dataset = { path, source: sourceOver(registry) };
      void previous?.then((source) => source.selector.close()).catch(() => {});
    }
    return dataset.source;
  };

  return {
    async select(request) {
      const started = performance.now();
      const k = request.k ?? defaultK;
      const minScore = request.minScore ?? defaultMinScore;
      const alwaysInclude = request.alwaysInclude ?? [];
      const { selector, registry } = await sourceOf(request);
      await selector.ready();
      // Past k and under the threshold, so the page sees what the line cut.
      const ranked = await selector.select(request.query, {
        k: Math.max(k * 2, k + 10),
        minScore: Number.NEGATIVE_INFINITY,
        signals: request.signals ?? 'hybrid',
        alwaysInclude: [],
      });
      const ranking: UiRankedTool[] = [];
      const chosen: Pick<SelectedTool, 'tool'>[] = [];
      ranked.forEach((entry, position) => {
        const always = alwaysInclude.includes(entry.name);
        const selected = always || (position < k && entry.score >= minScore);
        ranking.push(rankedTool(entry, selected, always));
        if (selected) chosen.push(entry);
      });
      for (const name of alwaysInclude) {
        const tool = registry.get(name);
        if (!tool || ranking.some((item) => item.name === name)) continue;
        ranking.push(rankedTool({ tool, name, score: 0, signals: {} }, true, true));
        chosen.push({ tool });
      }
      const info = selector.info();
      return {
        query: request.query,
        ranking,
        selectedCount: chosen.length,
        minScore,
        ...(info.embedder ? { embedder: info.embedder.modelId } : {}),
        ...(info.denseUnavailable ? { denseUnavailable: info.denseUnavailable } : {}),
        tokens: selector.tokenUsage(chosen),
        durationMs: Math.round(performance.now() - started),
      };
    },
    async close() {
      const sources = [live, dataset?.source].filter((source) => source !== undefined);
      await Promise.all(
        sources.map((source) => source.then((opened) => opened.selector.close()).catch(() => {})),
      );
      await (await embedder?.catch(() => undefined))?.close?.();
    },
  };
}

function rankedTool(entry: SelectedTool, selected: boolean, alwaysIncluded: boolean): UiRankedTool {
  return {
    name: entry.name,
    originalName: entry.tool.originalName,
    server: entry.tool.server,
    ...(entry.tool.description === '' ? {} : { description: entry.tool.description }),
    score: entry.score,
    ...(entry.signals.dense
      ? { denseRank: entry.signals.dense.rank, denseScore: entry.signals.dense.score }
      : {}),
    ...(entry.signals.lexical
      ? { lexicalRank: entry.signals.lexical.rank, lexicalScore: entry.signals.lexical.score }
      : {}),
    ...(alwaysIncluded ? { alwaysIncluded: true } : {}),
    selected,
  };
}

/**
 * The tools of a dataset folder in the benchmark format (tool-selection's bench: `tools.jsonl`,
 * one `{ name, description, inputSchema?, server?, server_description? }` a line), registered as
 * the bench registers them.
 */
function datasetRegistry(folder: string): ToolRegistry {
  const file = join(folder, 'tools.jsonl');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UiError({
      code: UiErrorCode.DatasetInvalid,
      message: `Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}. A dataset folder holds tools.jsonl (one tool a line) and queries.jsonl, as tool selection's benchmark reads them.`,
      context: { dataset: folder },
    });
  }
  const registry = createToolRegistry();
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    let tool: Record<string, unknown>;
    try {
      tool = JSON.parse(line) as Record<string, unknown>;
    } catch (error) {
      throw new UiError({
        code: UiErrorCode.DatasetInvalid,
        message: `${file}:${index + 1}: not valid JSON (${(error as Error).message}).`,
        context: { dataset: folder, line: index + 1 },
      });
    }
    if (typeof tool.name !== 'string' || tool.name === '') {
      throw new UiError({
        code: UiErrorCode.DatasetInvalid,
        message: `${file}:${index + 1}: "name" must be a non-empty string.`,
        context: { dataset: folder, line: index + 1 },
      });
    }
    const name = tool.name;
    const register = () =>
      registry.register({
        server: typeof tool.server === 'string' ? tool.server : 'dataset',
        name,
        description: typeof tool.description === 'string' ? tool.description : '',
        inputSchema:
          typeof tool.inputSchema === 'object' && tool.inputSchema !== null
            ? (tool.inputSchema as Record<string, unknown>)
            : { type: 'object' },
        ...(typeof tool.server_description === 'string'
          ? { meta: { serverDescription: tool.server_description } }
          : {}),
      });
    try {
      register();
    } catch (error) {
      throw new UiError({
        code: UiErrorCode.DatasetInvalid,
        message: `${file}:${index + 1}: ${(error as Error).message}`,
        context: { dataset: folder, line: index + 1 },
        cause: error,
      });
    }
  });
  return registry;
}
