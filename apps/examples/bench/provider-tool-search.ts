/**
 * Provider tool search bench, one run: (1) what the model reads per turn of a multi-step task on the
 * examples' 537 tools, every definition up front against deferred tools plus the search (Anthropic:
 * `defer_loading` + `search_tools`; OpenAI: deferred namespaces + `tool_search`), the searched tools
 * loading as the task goes; (2) the search handler's quality on the bench folders: Recall@1/3/5 of
 * `createAnthropicToolSearch` over the offline selector, and how often it finds nothing, on labelled
 * queries and on BFCL's no-tool queries, without a threshold, at several `minSimilarity` alone and
 * unless a tool shares a word with the request (`unlessWordsMatch`, the default).
 *
 *   pnpm --filter @switchboard/examples bench:tool-search [--data DIR] [--folders bfcl,toolalpaca,...] [--json]
 *
 * Tokens are estimated as the JSON's characters / 4 (tool-selection's estimator rule), per turn.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  connectMcp,
  createAnthropicToolSearch,
  createOpenAIToolSearch,
  toAnthropicTools,
  toOpenAINamespaces,
  toOpenAITools,
} from '@switchboard/client';
import { createToolRegistry, type JsonSchema } from '@switchboard/core';
import { createToolSelector, type ToolSelector } from '@switchboard/tool-selection';
import { largeToolSet } from '../src/catalogue-servers.js';

const { values: args } = parseArgs({
  options: {
    data: { type: 'string', default: resolve(import.meta.dirname, '../../../../shared/bench/train') },
    folders: { type: 'string', default: 'bfcl,toolalpaca,stabletoolbench,seal-tools,apibench' },
    json: { type: 'boolean', default: false },
  },
});
const log = (line: string) => (args.json ? process.stderr : process.stdout).write(`${line}\n`);
const tokens = (value: unknown) => Math.ceil(JSON.stringify(value).length / 4);

/** The steps of the measured task, as the model would search for them (a few words each). */
const taskSteps = [
  'list the files in a folder',
  'read a text file',
  'store a new entity in the knowledge graph',
  'book a flight',
  'send an invoice to a customer',
  'add two numbers',
];

async function deferralTokens() {
  const folder = await mkdtemp(join(tmpdir(), 'switchboard-bench-search-'));
  const connection = await connectMcp(largeToolSet(folder), { approval: 'never' });
  const selector = createToolSelector({ registry: connection.registry });
  try {
    await selector.ready();
    const anthropicAll = toAnthropicTools(connection);
    const anthropic = toAnthropicTools(connection, { deferLoading: true });
    const anthropicSearch = createAnthropicToolSearch(anthropic, { searcher: selector });
    const openAIAll = toOpenAITools(connection);
    const openAI = toOpenAINamespaces(connection);
    const openAISearch = createOpenAIToolSearch(openAI, { searcher: selector });
    const definitionOf = new Map(anthropic.tools.map((tool) => [tool.name, tool]));
    const functionOf = new Map(openAI.tools.flatMap((ns) => ns.tools.map((fn) => [fn.name, fn] as const)));
    const namespaceStubs = openAI.tools.map(({ type, name, description }) => ({ type, name, description }));

    // Keyed by name: a tool two searches find is loaded once.
    const loadedAnthropic = new Map<string, unknown>();
    const loadedOpenAI = new Map<string, unknown>();
    const turns: Array<{ turn: number; step: string; anthropic: number; openai: number }> = [];
    for (const [index, step] of taskSteps.entries()) {
      // What the model reads this turn: the search tool, what earlier searches loaded.
      turns.push({
        turn: index + 1,
        step,
        anthropic: tokens([anthropicSearch.tool, ...loadedAnthropic.values()]),
        openai: tokens([...namespaceStubs, openAISearch.tool, ...loadedOpenAI.values()]),
      });
      const references = await anthropicSearch.handle({ id: `s${index}`, input: { query: step } });
      for (const block of references.content) {
        if (block.type === 'tool_reference')
          loadedAnthropic.set(block.tool_name, definitionOf.get(block.tool_name));
      }
      const output = await openAISearch.handle({
        type: 'tool_search_call',
        call_id: `c${index}`,
        arguments: { query: step },
      });
      for (const namespace of output.tools)
        for (const fn of namespace.tools) loadedOpenAI.set(fn.name, functionOf.get(fn.name));
    }
    return {
      tools: anthropic.tools.length,
      everyTurnWithoutDeferral: { anthropic: tokens(anthropicAll.tools), openai: tokens(openAIAll.tools) },
      requestBodyWithDeferral: {
        anthropic: tokens([anthropicSearch.tool, ...anthropic.tools]),
        openai: tokens([...openAI.tools, openAISearch.tool]),
      },
      turns,
    };
  } finally {
    await selector.close();
    await connection.close();
    await rm(folder, { recursive: true, force: true });
  }
}

interface FolderTool {
  name: string;
  description: string;
  inputSchema?: JsonSchema;
  server?: string;
}

function readLines<T>(file: string): T[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

/**
 * The search settings measured: no threshold; the cosine alone (`unlessWordsMatch: false`, the
 * default before); the cosine unless a tool shares a word with the request (the default: 0.5);
 * and the default with an adaptive limit.
 */
const settings: Array<{ minSimilarity: number | null; unlessWordsMatch?: boolean; relativeScore?: number }> =
  [
    { minSimilarity: null },
    { minSimilarity: 0.3, unlessWordsMatch: false },
    { minSimilarity: 0.5, unlessWordsMatch: false },
    { minSimilarity: 0.3, unlessWordsMatch: true },
    { minSimilarity: 0.5, unlessWordsMatch: true },
    { minSimilarity: 0.5, unlessWordsMatch: true, relativeScore: 0.5 },
    { minSimilarity: 0.5, unlessWordsMatch: true, relativeScore: 0.7 },
  ];

async function searchQuality(folderName: string) {
  const folder = join(args.data, folderName);
  const tools = readLines<FolderTool>(join(folder, 'tools.jsonl'));
  const queries = readLines<{ query: string; expected: string[] }>(join(folder, 'queries.jsonl'));
  const negatives = readLines<{ query: string }>(join(folder, 'negatives.jsonl'));
  const registry = createToolRegistry();
  for (const tool of tools) {
    registry.register({
      server: tool.server ?? folderName,
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema ?? { type: 'object' },
      execute: async () => ({ content: [] }),
    });
  }
  const selector: ToolSelector = createToolSelector({ registry });
  await selector.ready();
  const provider = toAnthropicTools(registry, { deferLoading: true });
  const originalOf = (providerName: string) => provider.toolsByName.get(providerName)?.originalName ?? '';
  const rows = [];
  for (const setting of settings) {
    const search = createAnthropicToolSearch(provider, { searcher: selector, ...setting, limit: 5 });
    const found = async (query: string) => {
      const result = await search.handle({ id: 'q', input: { query } });
      return result.content.flatMap((block) =>
        block.type === 'tool_reference' ? [originalOf(block.tool_name)] : [],
      );
    };
    const recall = { at1: 0, at3: 0, at5: 0 };
    let emptyLabelled = 0;
    let toolsFound = 0;
    for (const { query, expected } of queries) {
      const names = await found(query);
      toolsFound += names.length;
      if (names.length === 0) emptyLabelled++;
      const wanted = new Set(expected);
      for (const [key, k] of [
        ['at1', 1],
        ['at3', 3],
        ['at5', 5],
      ] as const) {
        recall[key] += names.slice(0, k).filter((name) => wanted.has(name)).length / wanted.size;
      }
    }
    let emptyNegatives = 0;
    for (const { query } of negatives) if ((await found(query)).length === 0) emptyNegatives++;
    const percent = (value: number, of: number) => (of === 0 ? null : Math.round((value / of) * 1000) / 10);
    rows.push({
      setting: `${setting.minSimilarity ?? 'off'}${setting.unlessWordsMatch ? ' unless words' : setting.minSimilarity === null ? '' : ' alone'}${setting.relativeScore === undefined ? '' : `, rel ${setting.relativeScore}`}`,
      toolsPerSearch: Math.round((toolsFound / Math.max(queries.length, 1)) * 100) / 100,
      recall1: percent(recall.at1, queries.length),
      recall3: percent(recall.at3, queries.length),
      recall5: percent(recall.at5, queries.length),
      labelledGivenNothing: percent(emptyLabelled, queries.length),
      noToolGivenNothing: percent(emptyNegatives, negatives.length),
    });
  }
  await selector.close();
  return {
    folder: folderName,
    tools: tools.length,
    queries: queries.length,
    negatives: negatives.length,
    rows,
  };
}

const deferral = await deferralTokens();
log(`\nTokens the model reads per turn, ${deferral.tools} tools (characters / 4)`);
log(
  `  without deferral, every turn: Anthropic ${deferral.everyTurnWithoutDeferral.anthropic}, OpenAI ${deferral.everyTurnWithoutDeferral.openai}`,
);
log('  turn  step                                        Anthropic  ratio   OpenAI  ratio');
for (const turn of deferral.turns) {
  const a = turn.anthropic / deferral.everyTurnWithoutDeferral.anthropic;
  const o = turn.openai / deferral.everyTurnWithoutDeferral.openai;
  log(
    `  ${String(turn.turn).padStart(4)}  ${turn.step.padEnd(42)} ${String(turn.anthropic).padStart(9)}  ${(a * 100).toFixed(1).padStart(5)}% ${String(turn.openai).padStart(8)}  ${(o * 100).toFixed(1).padStart(5)}%`,
  );
}
log(
  `  request body with deferral (sent, not read): Anthropic ${deferral.requestBodyWithDeferral.anthropic}, OpenAI ${deferral.requestBodyWithDeferral.openai}`,
);

const quality = [];
for (const name of args.folders.split(',').filter(Boolean)) {
  if (!existsSync(join(args.data, name, 'tools.jsonl'))) {
    log(`\n${name}: no tools.jsonl under ${args.data}; skipped`);
    continue;
  }
  const result = await searchQuality(name);
  quality.push(result);
  log(
    `\n${name}: ${result.tools} tools, ${result.queries} labelled queries, ${result.negatives} no-tool queries`,
  );
  log(
    '  minSimilarity            tools/search  R@1   R@3   R@5   labelled given nothing  no-tool given nothing',
  );
  for (const row of result.rows) {
    log(
      `  ${row.setting.padEnd(24)} ${String(row.toolsPerSearch).padStart(12)}  ${row.recall1}  ${row.recall3}  ${row.recall5}  ${String(row.labelledGivenNothing).padStart(21)}%  ${row.noToolGivenNothing === null ? '—' : `${row.noToolGivenNothing}%`}`,
    );
  }
}
if (args.json) process.stdout.write(`${JSON.stringify({ deferral, quality }, null, 2)}\n`);
