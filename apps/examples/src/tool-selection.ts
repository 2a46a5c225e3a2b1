/**
 * Example 3 — dynamic tool selection: over 500 tools from four servers, pick the few that fit each
 * request instead of sending every schema to the model, and count the tokens that saves.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectMcp } from '@switchboard/client';
import { createDiscoverToolsTool, createToolSelector } from '@switchboard/tool-selection';
import { largeToolSet } from './catalogue-servers.js';

const folder = await mkdtemp(join(tmpdir(), 'switchboard-selection-'));
const mcp = await connectMcp(largeToolSet(folder));
// The selector follows the registry: tools of servers that connect or change are indexed as they come.
const selector = createToolSelector({ registry: mcp.registry });
mcp.registry.register(createDiscoverToolsTool(selector));
try {
  await selector.ready();
  const info = selector.info();
  const perServer = mcp.servers.map((server) => `${server} ${mcp.registry.list({ server }).length}`);
  console.log(`${info.tools} tools indexed (${perServer.join(', ')}, + discover_tools)`);
  const ranking = info.embedder
    ? `hybrid: BM25 + embeddings from ${info.embedder.modelId}`
    : `BM25 only — ${info.denseUnavailable?.split(': ')[0] ?? 'no embedder'}`;
  console.log(`ranking: ${ranking}`);

  const queries = [
    'add two numbers together',
    'book a flight from Oslo to Paris next Friday',
    'list the files in my directory',
    'store Alice as a new entity in the knowledge graph',
    'scale the web deployment to five replicas',
    'send an invoice of 300 euros to customer 42',
  ];
  let saved = 0;
  let total = 0;
  for (const query of queries) {
    const selected = await selector.select(query, { k: 5 });
    const usage = selector.tokenUsage(selected);
    saved += usage.savedTokens;
    total += usage.totalTokens;
    console.log(`\n“${query}”`);
    for (const { name, score, signals } of selected) {
      const why = signals.alwaysIncluded
        ? 'always included'
        : [
            signals.lexical && `bm25 #${signals.lexical.rank}`,
            signals.dense && `dense #${signals.dense.rank}`,
          ]
            .filter(Boolean)
            .join(', ');
      console.log(`  ${score.toFixed(3)}  ${name.padEnd(46)} ${why}`);
    }
    const percent = ((usage.savedTokens / usage.totalTokens) * 100).toFixed(1);
    console.log(
      `  tokens: ${usage.selectedTokens} for ${usage.selectedTools} tools instead of ${usage.totalTokens} for ${usage.totalTools} (saves ${percent}%)`,
    );
  }
  console.log(`\nover ${queries.length} requests: ${saved} of ${total} tool-definition tokens saved`);
} finally {
  await selector.close();
  await mcp.close();
  await rm(folder, { recursive: true, force: true });
}
