/**
 * `pnpm --filter @switchboard/core bench:trust-rules [--list] [--json]`: the false-positive judge of
 * the trust rules. Runs every built-in rule over real tool text — the 8,309 tools of the MCP
 * catalogue (`../shared/bench/train/mcp-catalogue/tools.jsonl`, or `SWITCHBOARD_MCP_CATALOGUE`) and
 * the official servers' tools, listed live over stdio — and prints findings per rule and code.
 *
 * The catalogue's servers are grouped into connections by category (servers of one category are
 * the ones a user connects together, and the closest in vocabulary, so the cross-server rules
 * meet their hardest honest case); the official servers form one connection. `--all-in-one` puts
 * all 775 catalogue servers on one connection, a stress case no user has.
 *
 * A tool counts as flagged when the default policy reports a finding on it (severity `low` or
 * above; `info`, such as two servers sharing a name, is not a flag). The judge fails (exit 1) when
 * more than 1 % of the tools are flagged. `--list` prints every flag, for the hand check.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createTemporaryDirectory, serverScript } from '@switchboard/test-helpers';
import {
  createToolChecker,
  type FindingSeverity,
  severityAtLeast,
  type ToolFinding,
  type ToolToCheck,
  type TrustableTool,
} from '../src/index.js';

const list = process.argv.includes('--list');
const json = process.argv.includes('--json');
const allInOne = process.argv.includes('--all-in-one');
const flagThreshold: FindingSeverity = 'low';
const maxFlaggedShare = 0.01;

const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const cataloguePath =
  process.env.SWITCHBOARD_MCP_CATALOGUE ??
  join(repositoryRoot, '..', 'shared', 'bench', 'train', 'mcp-catalogue', 'tools.jsonl');

interface CatalogueLine {
  name: string;
  description: string;
  server: string;
  category: string;
  inputSchema?: Record<string, unknown>;
}

function readCatalogue(): Map<string, ToolToCheck[]> {
  const connections = new Map<string, ToolToCheck[]>();
  for (const line of readFileSync(cataloguePath, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const entry = JSON.parse(line) as CatalogueLine;
    // Names are `<server>.<tool>`.
    const name = entry.name.startsWith(`${entry.server}.`)
      ? entry.name.slice(entry.server.length + 1)
      : entry.name;
    const tool: TrustableTool = {
      name,
      description: entry.description,
      inputSchema: entry.inputSchema ?? { type: 'object' },
    };
    const connection = allInOne ? 'catalogue' : `catalogue/${entry.category}`;
    let tools = connections.get(connection);
    if (tools === undefined) {
      tools = [];
      connections.set(connection, tools);
    }
    tools.push({ server: entry.server, tool });
  }
  return connections;
}

async function listOfficial(): Promise<ToolToCheck[]> {
  using directory = createTemporaryDirectory();
  const servers: Array<[string, string[], Record<string, string>]> = [
    ['everything', [serverScript('server-everything'), 'stdio'], {}],
    ['filesystem', [serverScript('server-filesystem'), directory.path], {}],
    ['memory', [serverScript('server-memory')], { MEMORY_FILE_PATH: join(directory.path, 'memory.jsonl') }],
  ];
  const tools: ToolToCheck[] = [];
  for (const [server, args, env] of servers) {
    const client = new Client({ name: 'trust-rules-bench', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args,
      env: { ...(process.env as Record<string, string>), ...env },
      stderr: 'ignore',
    });
    await client.connect(transport);
    const listed = await client.listTools();
    for (const tool of listed.tools) tools.push({ server, tool: tool as TrustableTool });
    await client.close();
  }
  return tools;
}

interface Row {
  rule: string;
  code: string;
  severities: Set<string>;
  findings: number;
  tools: Set<string>;
}

const connections = readCatalogue();
connections.set('official', await listOfficial());
const checker = createToolChecker();
const rows = new Map<string, Row>();
// Every code of every rule gets a row, so a rule that flagged nothing shows as 0.
for (const rule of checker.rules)
  for (const code of rule.codes)
    rows.set(`${rule.name}\u0000${code}`, {
      rule: rule.name,
      code,
      severities: new Set(),
      findings: 0,
      tools: new Set(),
    });
const flagged = new Map<string, ToolFinding[]>();
let totalTools = 0;
let catalogueTools = 0;
let officialTools = 0;
const started = performance.now();
for (const [connection, tools] of connections) {
  totalTools += tools.length;
  if (connection === 'official') officialTools += tools.length;
  else catalogueTools += tools.length;
  for (const finding of await checker.check(tools)) {
    const key = `${finding.rule}\u0000${finding.code}`;
    let row = rows.get(key);
    if (row === undefined) {
      row = { rule: finding.rule, code: finding.code, severities: new Set(), findings: 0, tools: new Set() };
      rows.set(key, row);
    }
    row.severities.add(finding.severity);
    const toolKey = `${connection} ${finding.server}/${finding.tool}`;
    row.findings++;
    row.tools.add(toolKey);
    if (severityAtLeast(finding.severity, flagThreshold)) {
      const list = flagged.get(toolKey) ?? [];
      list.push(finding);
      flagged.set(toolKey, list);
    }
  }
}
const elapsedMs = performance.now() - started;
const share = flagged.size / totalTools;
const table = [...rows.values()].sort(
  (left, right) => left.rule.localeCompare(right.rule) || left.code.localeCompare(right.code),
);

if (json) {
  console.log(
    JSON.stringify({
      tools: totalTools,
      catalogueTools,
      officialTools,
      flaggedTools: flagged.size,
      flaggedShare: share,
      rows: table.map((row) => ({ ...row, severities: [...row.severities], tools: row.tools.size })),
      flags: list ? Object.fromEntries(flagged) : undefined,
    }),
  );
} else {
  console.log(
    `Trust rules over ${totalTools} real tools (${catalogueTools} catalogue in ${connections.size - 1} connection(s), ${officialTools} official), ${elapsedMs.toFixed(0)} ms\n`,
  );
  const header = ['rule', 'code', 'severity seen', 'findings', 'tools', '% of tools'];
  const cells = table.map((row) => [
    row.rule,
    row.code,
    row.severities.size === 0 ? '—' : [...row.severities].join(', '),
    String(row.findings),
    String(row.tools.size),
    ((100 * row.tools.size) / totalTools).toFixed(3),
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...cells.map((row) => (row[column] ?? '').length)),
  );
  const line = (row: string[]) =>
    `| ${row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
  for (const row of cells) console.log(line(row));
  console.log(
    `\nFlagged by the default policy (severity ≥ ${flagThreshold}): ${flagged.size} of ${totalTools} tools (${(100 * share).toFixed(2)} %, limit ${100 * maxFlaggedShare} %)`,
  );
  if (list) {
    console.log('\nEvery flag:');
    for (const [tool, findings] of flagged) {
      for (const finding of findings)
        console.log(
          `- ${tool} [${finding.code} ${finding.severity}] ${finding.field}: ${JSON.stringify(finding.excerpt)}`,
        );
    }
  }
}
if (share > maxFlaggedShare) process.exitCode = 1;
