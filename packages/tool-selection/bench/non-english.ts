/**
 * Non-English tool text, one run: Recall@1/5/8 and MRR of BM25 alone and of the hybrid ranking on
 * the non-English set (`non-english-set.ts`: 216 queries in Chinese, Japanese, Korean and Russian
 * built by a fixed rule from real MCP tool descriptions, against the whole 8,309-tool catalogue),
 * with non-Latin words indexed whole (`nonLatin: 'words'`, before) and as character pairs and
 * prefixes (`'ngrams'`, after); and the same two on MetaTool's English queries, which must not drop,
 * and on the bench folders.
 *
 *   pnpm --filter @switchboard/tool-selection bench:non-english [--catalogue DIR] [--metatool DIR] [--train DIR]
 *     [--folders bfcl,seal-tools,...] [--json]
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { toolSearchDefaults } from '@switchboard/core';
import { type Quality, selectionQuality } from '@switchboard/test-helpers';
import { createLexicalIndex, createOfflineEmbedder, createToolSelector } from '../src/index.js';
import { type DatasetQuery, type DatasetTool, loadDataset } from './dataset.js';
import { registryOf } from './dataset-at-scale.js';
import { buildNonEnglishSet } from './non-english-set.js';

const { values: args } = parseArgs({
  options: {
    catalogue: {
      type: 'string',
      default: resolve(import.meta.dirname, '../../../../shared/bench/train/mcp-catalogue'),
    },
    metatool: { type: 'string', default: resolve(import.meta.dirname, '../../../../shared/bench/metatool') },
    train: { type: 'string', default: resolve(import.meta.dirname, '../../../../shared/bench/train') },
    folders: { type: 'string', default: 'bfcl,seal-tools,stabletoolbench,toolalpaca,apibench' },
    json: { type: 'boolean', default: false },
  },
});
const log = (line: string) => (args.json ? process.stderr : process.stdout).write(`${line}\n`);

const embedder = createOfflineEmbedder();
const toolSearchMinSimilarity = toolSearchDefaults.minSimilarity;

async function measure(tools: readonly DatasetTool[], queries: readonly DatasetQuery[]) {
  const rows: Array<{
    nonLatin: 'words' | 'ngrams';
    signals: string;
    quality: Quality;
    givenNothing?: number;
  }> = [];
  for (const nonLatin of ['words', 'ngrams'] as const) {
    const selector = createToolSelector({
      registry: registryOf(tools),
      embedder,
      lexical: createLexicalIndex({ nonLatin }),
      queryCacheSize: queries.length + 1,
    });
    await selector.ready();
    for (const signals of ['lexical', 'hybrid'] as const) {
      const quality = await selectionQuality(
        (chunk) => selector.selectMany(chunk, { k: 8, alwaysInclude: [], signals }),
        queries,
      );
      rows.push({ nonLatin, signals, quality });
    }
    // With the provider tool search's default threshold: how many labelled queries get no tool.
    let empty = 0;
    const quality = await selectionQuality(async (chunk) => {
      const results = await selector.selectMany(chunk, {
        k: 8,
        alwaysInclude: [],
        minSimilarity: toolSearchMinSimilarity,
      });
      empty += results.filter((result) => result.length === 0).length;
      return results;
    }, queries);
    rows.push({
      nonLatin,
      signals: `hybrid, minSimilarity ${toolSearchMinSimilarity}`,
      quality,
      givenNothing: Math.round((empty / Math.max(queries.length, 1)) * 1000) / 10,
    });
    await selector.close();
  }
  return rows;
}

function print(title: string, rows: Awaited<ReturnType<typeof measure>>): void {
  log(`\n${title}`);
  log('  signals                    terms of non-Latin words   R@1    R@5    R@8    MRR  given nothing');
  for (const { nonLatin, signals, quality, givenNothing } of rows) {
    const figures = [quality.recall1, quality.recall5, quality.recall8, quality.mrr];
    log(
      `  ${signals.padEnd(26)} ${nonLatin.padEnd(25)} ${figures.map((value) => value.toFixed(1).padStart(5)).join('  ')}${givenNothing === undefined ? '' : `  ${givenNothing}%`}`,
    );
  }
}

const set = buildNonEnglishSet(args.catalogue);
const languages: Record<string, number> = {};
for (const query of set.queries) languages[query.language] = (languages[query.language] ?? 0) + 1;
log(
  `non-English set: ${set.queries.length} queries (${Object.entries(languages)
    .map(([language, count]) => `${language} ${count}`)
    .join(', ')}) over ${set.tools.length} catalogue tools`,
);
const nonEnglish = await measure(set.tools, set.queries);
print('non-English set', nonEnglish);
const byLanguage: Record<string, Awaited<ReturnType<typeof measure>>> = {};
for (const language of Object.keys(languages)) {
  byLanguage[language] = await measure(
    set.tools,
    set.queries.filter((query) => query.language === language),
  );
  print(`  of which ${language} (${languages[language]} queries)`, byLanguage[language]);
}
const metatool = loadDataset(args.metatool);
const english = await measure(metatool.tools, metatool.queries);
print(`MetaTool, English (${metatool.tools.length} tools, ${metatool.queries.length} queries)`, english);
// The bench folders hold a few non-English queries and tools (BFCL's live categories): they may move.
const folders: Record<string, Awaited<ReturnType<typeof measure>>> = {};
for (const folder of args.folders.split(',').filter(Boolean)) {
  const dataset = loadDataset(join(args.train, folder));
  folders[folder] = await measure(dataset.tools, dataset.queries);
  print(`${folder} (${dataset.tools.length} tools, ${dataset.queries.length} queries)`, folders[folder]);
}
if (args.json)
  process.stdout.write(`${JSON.stringify({ nonEnglish, byLanguage, english, folders }, null, 2)}\n`);
