/**
 * Leave-one-dataset-out bench of the model build: for each labelled training folder, the whole model
 * build runs with the fine-tuning on the other folders only, and the folder left out is ranked by the
 * real selector on that model (createStaticEmbedder + createToolSelector: its default vector index,
 * BM25, the default fusion). MetaTool is ranked by the model trained on all folders (the shipped recipe), and once
 * more by one trained with half of MetaTool's queries too, tested on the other half (its tools then
 * are seen in training: never the headline). BFCL's no-tool queries give the abstain table.
 *
 *   pnpm --filter @switchboard/model-build bench:lodo [--data DIR] [--metatool DIR] [--only seal-tools,bfcl] [--json]
 *
 * Each fold is a full build into a temporary folder (the teacher cache makes it about a minute).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createToolRegistry } from '@switchboard/core';
import type { Quality } from '@switchboard/test-helpers';
import { selectionQuality } from '@switchboard/test-helpers';
import type { SelectionSignals } from '@switchboard/tool-selection';
import { createStaticEmbedder, createToolSelector } from '@switchboard/tool-selection';
import type { ModelRecipe } from '../src/index.js';
import { buildModel, defaultTrainingDataRoot, resolveRecipe } from '../src/index.js';
import type { TrainingFolder } from '../src/training-folder.js';
import { readTrainingFolder } from '../src/training-folder.js';

const { values: args } = parseArgs({
  options: {
    data: { type: 'string', default: defaultTrainingDataRoot },
    metatool: { type: 'string', default: resolve(defaultTrainingDataRoot, '../metatool') },
    only: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
const dataRoot = resolve(args.data as string);
const log = (line: string) => (args.json ? process.stderr : process.stdout).write(`${line}\n`);
const base = resolveRecipe();
const scratch = mkdtempSync(join(tmpdir(), 'model-lodo-'));

/** The whole build with the fine-tuning on `folders` only, into its own folder. */
async function foldModel(label: string, folders: string[]): Promise<string> {
  const recipe: ModelRecipe = { ...base, contrastive: { ...base.contrastive, folders } };
  const { folder } = await buildModel({
    recipe,
    dataRoot,
    outRoot: join(scratch, label),
    log: (line) => log(`  [${label}] ${line}`),
  });
  return folder;
}

type Figures = Record<'bm25' | 'dense' | 'hybrid', Quality>;

/** Ranks `queries` over `folder`'s tools with the real selector on `modelFolder`. */
async function rank(
  modelFolder: string,
  folder: TrainingFolder,
  queries = folder.queries,
  negatives = folder.negatives,
) {
  const registry = createToolRegistry();
  for (const tool of folder.tools) {
    registry.register({
      server: tool.server ?? 'dataset',
      name: tool.name,
      description: tool.description ?? '',
      inputSchema: (tool.inputSchema ?? { type: 'object' }) as never,
      ...(tool.server_description ? { meta: { serverDescription: tool.server_description } } : {}),
    });
  }
  const embedder = createStaticEmbedder({ modelFolder, modelId: `${modelFolder}` });
  const texts = [...queries, ...negatives].map((query) => query.query);
  const selector = createToolSelector({ registry, embedder, queryCacheSize: texts.length + 1 });
  await selector.ready();
  const figures = {} as Figures;
  for (const [label, signals] of [
    ['bm25', 'lexical'],
    ['dense', 'dense'],
    ['hybrid', 'hybrid'],
  ] as const) {
    figures[label] = await selectionQuality(
      (chunk) =>
        selector.selectMany(chunk, { k: 10, alwaysInclude: [], signals: signals as SelectionSignals }),
      queries,
    );
  }
  // Abstaining: the best cosine of each query, labelled and no-tool.
  const best = async (list: readonly { query: string }[]) =>
    (
      await selector.selectMany(
        list.map((query) => query.query),
        { k: 1, alwaysInclude: [], signals: 'dense' },
      )
    ).map((selected) => selected[0]?.signals.dense?.score ?? 0);
  const abstain =
    negatives.length > 0 ? { labelled: await best(queries), negatives: await best(negatives) } : undefined;
  const hybridAt = async (threshold: number) =>
    (
      await selectionQuality(
        (chunk) => selector.selectMany(chunk, { k: 10, alwaysInclude: [], minSimilarity: threshold }),
        queries,
      )
    ).recall5;
  const abstainRows: Array<{
    minSimilarity: number;
    negativesAbstained: number;
    labelledAbstained: number;
    recall5: number;
  }> = [];
  if (abstain) {
    for (const threshold of [0.3, 0.4, 0.45, 0.5, 0.6, 0.7]) {
      const share = (scores: number[]) =>
        Math.round((scores.filter((score) => score < threshold).length / scores.length) * 1000) / 10;
      abstainRows.push({
        minSimilarity: threshold,
        negativesAbstained: share(abstain.negatives),
        labelledAbstained: share(abstain.labelled),
        recall5: await hybridAt(threshold),
      });
    }
  }
  await selector.close();
  return { figures, abstainRows };
}

const format = (figures: Quality) =>
  [figures.recall1, figures.recall5, figures.recall8, figures.mrr, figures.ndcg10]
    .map((value) => value.toFixed(1).padStart(5))
    .join('  ');

async function main(): Promise<void> {
  const folders = base.contrastive.folders;
  const holds = args.only
    ? (args.only as string).split(',')
    : [...folders, 'metatool', 'metatool-in-training'];
  const report: Record<string, unknown> = {};
  const rows: string[] = [];
  try {
    const before = await foldModel('refit-only', []);
    for (const hold of holds) {
      if (hold === 'metatool' || hold === 'metatool-in-training') {
        const metatool = readTrainingFolder(args.metatool as string);
        let testQueries = metatool.queries;
        let model: string;
        if (hold === 'metatool') model = await foldModel('all', folders);
        else {
          // Half of the queries (every other one, so every subset is in both halves) join the training.
          const half = join(scratch, 'metatool-half');
          mkdirSync(half, { recursive: true });
          writeFileSync(
            join(half, 'tools.jsonl'),
            metatool.tools.map((tool) => JSON.stringify(tool)).join('\n'),
          );
          writeFileSync(
            join(half, 'queries.jsonl'),
            metatool.queries
              .filter((_, index) => index % 2 === 0)
              .map((query) => JSON.stringify(query))
              .join('\n'),
          );
          testQueries = metatool.queries.filter((_, index) => index % 2 === 1);
          model = await foldModel('with-metatool', [...folders, half]);
        }
        const trained = await rank(model, metatool, testQueries, []);
        const untrained = await rank(before, metatool, testQueries, []);
        report[hold] = { before: untrained.figures, after: trained.figures };
        rows.push(...tableRows(hold, untrained.figures, trained.figures));
        continue;
      }
      const folder = readTrainingFolder(join(dataRoot, hold));
      const model = await foldModel(
        `without-${hold}`,
        folders.filter((name) => name !== hold),
      );
      const trained = await rank(model, folder);
      const untrained = await rank(before, folder, folder.queries, []);
      report[hold] = { before: untrained.figures, after: trained.figures, abstain: trained.abstainRows };
      rows.push(...tableRows(hold, untrained.figures, trained.figures));
      if (trained.abstainRows.length > 0) {
        log(
          `\n${hold}: ${folder.negatives.length} no-tool queries, ${folder.queries.length} labelled; minSimilarity | no-tool given none | labelled given none | labelled hybrid R@5`,
        );
        for (const row of trained.abstainRows)
          log(
            `${row.minSimilarity} | ${row.negativesAbstained}% | ${row.labelledAbstained}% | ${row.recall5}`,
          );
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  log('\nfolder (held out)        ranking                      R@1    R@5    R@8    MRR  nDCG@10');
  for (const row of rows) log(row);
  if (args.json) process.stdout.write(`${JSON.stringify(report)}\n`);
}

function tableRows(hold: string, before: Figures, after: Figures): string[] {
  return [
    `${hold.padEnd(24)} bm25                        ${format(after.bm25)}`,
    `${hold.padEnd(24)} dense, refit only           ${format(before.dense)}`,
    `${hold.padEnd(24)} hybrid, refit only          ${format(before.hybrid)}`,
    `${hold.padEnd(24)} dense, fine-tuned           ${format(after.dense)}`,
    `${hold.padEnd(24)} hybrid, fine-tuned          ${format(after.hybrid)}`,
  ];
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
