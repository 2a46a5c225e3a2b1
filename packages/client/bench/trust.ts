/**
 * `pnpm --filter @switchboard/client bench:trust [--json] [--quick]`: what tool trust (pinning and
 * the checks) adds to a `tools/list` of 1,000 tools and to a `tools/call`, in one run.
 *
 * The upstream is a real stdio server (official SDK v1, bench/fixtures/many-tools-server.mjs)
 * listing 999 tools of the MCP catalogue (`../shared/bench/train/mcp-catalogue/tools.jsonl`: real
 * names, descriptions and, where the catalogue has them, input schemas) plus `echo`. Two
 * connections to two spawns of it, measured in interleaved rounds:
 * - `off`: `trust: { pin: 'off' }` — no digest, no check, no store (the baseline);
 * - `pinned`: the default (`pin: 'block'`, pins in memory): every listing is digested and compared
 *   with the pins, and the checks run on any definition not seen before.
 * A listing is `refreshTools(server)`: the request, the review, the registry update.
 * listRatio = pinned p50 / off p50; pairedListRatio = the median of pinned/off over neighbouring
 * listings (they alternate one by one). Target ≤ 1.02.
 * `steadyReview`: the review alone of a re-listing (a fresh parse of the same 1,000 tools, against
 * a trust that pinned them), as a share of the `off` listing's p50 — an upper bound of the part of
 * `listRatio` that is trust's, free of the machine's noise (which on a shared machine swamps a 2 %
 * difference in whole listings). In a connection the tool list cache hands trust the objects it
 * saw before for unchanged tools, so the review there stops at the first identical reference.
 * `cpu`: the client process's CPU per listing, per side.
 * `firstUse`: a first review of the 1,000 tools (digests, every rule, the pins written), on a new
 * trust each time, as a share of the `off` listing's p50 — what a server's first connect adds once.
 * callRatio = pinned p50 / off p50 of `echo` calls (the trust link: one Map read). Target: ≈ 1.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createToolTrust, type TrustableTool } from '@switchboard/core';

type ClientPackage = typeof import('../src/index.js');
const { connectMcp } = (await import(
  process.env.BENCH_SOURCE === 'src' ? '../src/index.js' : '../dist/index.js'
)) as ClientPackage;

const json = process.argv.includes('--json');
const quick = process.argv.includes('--quick');
const rounds = quick ? 2 : 10;
const listingsPerRound = quick ? 4 : 20;
const callsPerRound = quick ? 50 : 400;
const toolCount = 1000;

const here = dirname(fileURLToPath(import.meta.url));
const cataloguePath =
  process.env.SWITCHBOARD_MCP_CATALOGUE ??
  join(here, '..', '..', '..', '..', 'shared', 'bench', 'train', 'mcp-catalogue', 'tools.jsonl');

interface CatalogueLine {
  name: string;
  description: string;
  server: string;
  inputSchema?: Record<string, unknown>;
}

/** 999 catalogue tools (those with schemas first) and `echo`, under names unique on one server. */
function benchTools(): TrustableTool[] {
  const lines = readFileSync(cataloguePath, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as CatalogueLine);
  lines.sort((a, b) => Number(b.inputSchema !== undefined) - Number(a.inputSchema !== undefined));
  const seen = new Set<string>(['echo']);
  const tools: TrustableTool[] = [];
  for (const line of lines) {
    if (tools.length === toolCount - 1) break;
    const name = line.name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 60);
    if (seen.has(name)) continue;
    seen.add(name);
    tools.push({ name, description: line.description, inputSchema: line.inputSchema ?? { type: 'object' } });
  }
  tools.unshift({
    name: 'echo',
    description: 'Echoes its message.',
    inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
  });
  return tools;
}

function percentile(sorted: number[], quantile: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(quantile * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

function summary(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50Us: Math.round(percentile(sorted, 0.5) * 1000),
    p95Us: Math.round(percentile(sorted, 0.95) * 1000),
  };
}

const directory = mkdtempSync(join(tmpdir(), 'switchboard-trust-bench-'));
const tools = benchTools();
const toolsFile = join(directory, 'tools.json');
writeFileSync(toolsFile, JSON.stringify(tools));
const entry = {
  command: process.execPath,
  args: [join(here, 'fixtures', 'many-tools-server.mjs')],
  env: { TOOLS_FILE: toolsFile },
};

const off = await connectMcp({ many: entry }, { approval: 'never', trust: { pin: 'off' } });
const pinned = await connectMcp({ many: entry }, { approval: 'never' });
const sides = { off, pinned } as const;
for (const connection of Object.values(sides)) {
  if (connection.registry.list().length !== toolCount) {
    throw new Error(`expected ${toolCount} tools, got ${connection.registry.list().length}`);
  }
}

const listings: Record<keyof typeof sides, number[]> = { off: [], pinned: [] };
const listingCpu: Record<keyof typeof sides, number[]> = { off: [], pinned: [] };
const steadyReview: number[] = [];
const toolsText = JSON.stringify(tools);
const calls: Record<keyof typeof sides, number[]> = { off: [], pinned: [] };
const firstUse: number[] = [];
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

// Warm-up: the first listings and calls of each side (JIT, caches) are not counted.
for (const connection of Object.values(sides)) {
  for (let index = 0; index < 3; index++) await connection.refreshTools('many');
  for (let index = 0; index < 50; index++) await connection.callTool('mcp__many__echo', { message: 'hi' });
}
for (let index = 0; index < 2; index++) await createToolTrust({ sha256 }).review('many', tools);
const steady = createToolTrust({ sha256 });
for (let index = 0; index < 5; index++) await steady.review('many', JSON.parse(toolsText) as TrustableTool[]);

for (let round = 0; round < rounds; round++) {
  // Alternate which side goes first, so that a busy moment of the machine hits both alike.
  const order = round % 2 === 0 ? (['off', 'pinned'] as const) : (['pinned', 'off'] as const);
  // Listings alternate one by one (off, pinned, pinned, off, …): a 2 % difference is far below
  // the machine's swings over a block of listings, but two neighbouring listings share them.
  for (let index = 0; index < listingsPerRound; index++) {
    for (const side of index % 2 === 0 ? order : [...order].reverse()) {
      const cpu = process.cpuUsage();
      const started = performance.now();
      await sides[side].refreshTools('many');
      listings[side].push(performance.now() - started);
      const used = process.cpuUsage(cpu);
      listingCpu[side].push((used.user + used.system) / 1000);
    }
  }
  for (let index = 0; index < listingsPerRound; index++) {
    const fresh = JSON.parse(toolsText) as TrustableTool[];
    const started = performance.now();
    await steady.review('many', fresh);
    steadyReview.push(performance.now() - started);
  }
  for (let index = 0; index < listingsPerRound; index++) {
    const trust = createToolTrust({ sha256 });
    const started = performance.now();
    await trust.review('many', tools);
    firstUse.push(performance.now() - started);
    trust.close();
  }
  for (const side of order) {
    for (let index = 0; index < callsPerRound; index++) {
      const started = performance.now();
      await sides[side].callTool('mcp__many__echo', { message: 'hi' });
      calls[side].push(performance.now() - started);
    }
  }
}

await Promise.all(Object.values(sides).map((connection) => connection.close()));
rmSync(directory, { recursive: true, force: true });

const list = { off: summary(listings.off), pinned: summary(listings.pinned) };
const call = { off: summary(calls.off), pinned: summary(calls.pinned) };
const first = summary(firstUse);
const steadySummary = summary(steadyReview);
const cpu = { off: summary(listingCpu.off), pinned: summary(listingCpu.pinned) };
const report = {
  node: process.version,
  tools: toolCount,
  rounds,
  list,
  listRatio: Number((list.pinned.p50Us / list.off.p50Us).toFixed(3)),
  // The median of pinned/off over neighbouring listings: each pair shares the machine's moment.
  pairedListRatio: Number(
    percentile(
      listings.pinned
        .map((pinnedMs, index) => pinnedMs / (listings.off[index] as number))
        .sort((a, b) => a - b),
      0.5,
    ).toFixed(3),
  ),
  steadyReview: {
    ...steadySummary,
    shareOfListing: Number((steadySummary.p50Us / list.off.p50Us).toFixed(4)),
  },
  cpu,
  cpuRatio: Number((cpu.pinned.p50Us / cpu.off.p50Us).toFixed(3)),
  firstUse: { ...first, shareOfListing: Number((first.p50Us / list.off.p50Us).toFixed(3)) },
  call,
  callRatio: Number((call.pinned.p50Us / call.off.p50Us).toFixed(3)),
};
if (json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
else {
  const line = (label: string, value: { p50Us: number; p95Us: number; n: number }) =>
    `  ${label.padEnd(22)} p50 ${String(value.p50Us).padStart(7)} µs  p95 ${String(value.p95Us).padStart(7)} µs  (n=${value.n})`;
  process.stdout.write(
    [
      `Tool trust cost, ${toolCount} tools over stdio (${process.version}), ${rounds} interleaved rounds`,
      'tools/list (refreshTools):',
      line('trust off', list.off),
      line('pinned (default)', list.pinned),
      `  ratio pinned/off: ${report.listRatio}, median of neighbouring pairs: ${report.pairedListRatio} (target ≤ 1.02)`,
      line('client CPU, trust off', cpu.off),
      line('client CPU, pinned', cpu.pinned),
      `  CPU ratio pinned/off: ${report.cpuRatio}`,
      `re-listing review alone: ${line('', steadySummary).trim()}  = ${report.steadyReview.shareOfListing} × a listing`,
      `first review of ${toolCount} tools: ${line('', first).trim()}  = ${report.firstUse.shareOfListing} × a listing`,
      'tools/call (echo):',
      line('trust off', call.off),
      line('pinned (default)', call.pinned),
      `  ratio pinned/off: ${report.callRatio}`,
      '',
    ].join('\n'),
  );
}
