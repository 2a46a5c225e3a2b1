/**
 * `switchboard doctor`: what is wrong and where. Per server: spawn/connect result and time,
 * handshake, tool count, estimated tokens of its tool definitions, and the name and schema problems
 * each provider would have with its tools, and a URL server's Server Card; then the embedder and vector index tool selection would
 * use, and why (`doctor-selection.ts`); and the config files read.
 */
import { createMcpClient, type McpClient, type ServerConfig, type ServerEntry } from '@switchboard/client';
import {
  checkToolName,
  checkToolSchema,
  createToolName,
  type McpToolDefinition,
  type SchemaTarget,
  SwitchboardError,
  toAnthropicTool,
  toGeminiFunction,
  toOpenAITool,
} from '@switchboard/core';
import { createTokenEstimator } from '@switchboard/tool-selection';
import type { CommandContext } from '../cli-command.js';
import { ExitCode } from '../cli-error.js';
import { createPalette, createProgress } from '../cli-io.js';
import { loadCliConfig, pickServers, printJson } from '../cli-session.js';
import { checkSelection, printSelection, type SelectionReport } from './doctor-selection.js';
import { checkTrust, printTrust } from './doctor-trust.js';
import { describeServerCard, readServerCard, type ServerCardReport } from './server-card-report.js';
import { describeTarget } from './servers-command.js';

const targets: SchemaTarget[] = ['openai-strict', 'anthropic', 'gemini'];

interface ProviderReport {
  /** Tools the provider would reject (name or converted schema). */
  rejected: number;
  /** Changes the conversion had to make (dropped keywords, made nullable...). */
  lossyChanges: number;
  examples: string[];
}

interface ServerReport {
  server: string;
  target: string;
  ok: boolean;
  connectMs: number;
  error?: string;
  stderrTail?: string[];
  serverInfo?: { name: string; version: string };
  /** The protocol era the connection landed on (`modern` = 2026-07-28, `legacy` = the 2025 family). */
  era?: string;
  protocolVersion?: string;
  tools?: number;
  /** The listed tools (for the trust review; not printed as such). */
  listed?: McpToolDefinition[];
  estimatedTokens?: number;
  providers?: Record<string, ProviderReport>;
  /** A URL server's Server Card (`null`: none published), read before connecting. */
  serverCard?: ServerCardReport | null;
}

function convert(tool: McpToolDefinition, target: SchemaTarget) {
  if (target === 'openai-strict') {
    const { result, lossy } = toOpenAITool(tool, { strict: true });
    return { schema: result.function.parameters, lossy };
  }
  if (target === 'anthropic') {
    const { result, lossy } = toAnthropicTool(tool);
    return { schema: result.input_schema, lossy };
  }
  const { result, lossy } = toGeminiFunction(tool);
  return { schema: result.parameters ?? { type: 'object', properties: {} }, lossy };
}

function checkProviders(server: string, tools: McpToolDefinition[]): Record<string, ProviderReport> {
  const reports: Record<string, ProviderReport> = {};
  for (const target of targets) {
    const report: ProviderReport = { rejected: 0, lossyChanges: 0, examples: [] };
    for (const tool of tools) {
      const publicName = createToolName({ server, tool: tool.name });
      const { schema, lossy } = convert({ ...tool, name: publicName }, target);
      const problems = [
        ...checkToolName(publicName, target),
        ...checkToolSchema(schema, target).filter((problem) => problem.severity === 'error'),
      ];
      report.lossyChanges += lossy.length;
      if (problems.length) {
        report.rejected++;
        if (report.examples.length < 3) {
          report.examples.push(`${tool.name}: ${problems[0]?.message} (at ${problems[0]?.path})`);
        }
      } else if (lossy.length && report.examples.length < 3) {
        report.examples.push(`${tool.name}: ${lossy[0]?.message} (at ${lossy[0]?.path})`);
      }
    }
    reports[target] = report;
  }
  return reports;
}

async function checkServer(server: string, entry: ServerConfig): Promise<ServerReport> {
  const card = readServerCard(entry);
  const report = await connectAndCheck(server, entry);
  const serverCard = await card;
  return serverCard === undefined ? report : { ...report, serverCard };
}

async function connectAndCheck(server: string, entry: ServerConfig): Promise<ServerReport> {
  const started = performance.now();
  let client: McpClient | undefined;
  try {
    client = await createMcpClient(server, entry as ServerEntry, {
      initializeTimeoutMs: entry.timeouts?.connectMs ?? 15_000,
    });
    const connectMs = Math.round(performance.now() - started);
    const tools = (await client.listTools()) as McpToolDefinition[];
    const estimate = createTokenEstimator();
    return {
      server,
      target: describeTarget(entry),
      ok: true,
      connectMs,
      ...(client.serverInfo
        ? { serverInfo: { name: client.serverInfo.name, version: client.serverInfo.version } }
        : {}),
      era: client.era,
      ...(client.protocolVersion ? { protocolVersion: client.protocolVersion } : {}),
      tools: tools.length,
      listed: tools,
      estimatedTokens: tools.reduce(
        (sum, tool) =>
          sum +
          estimate({ name: tool.name, description: tool.description ?? '', inputSchema: tool.inputSchema }),
        0,
      ),
      providers: checkProviders(server, tools),
    };
  } catch (error) {
    const tail = SwitchboardError.isInstance(error)
      ? (error.context.stderrTail as string[] | undefined)
      : undefined;
    return {
      server,
      target: describeTarget(entry),
      ok: false,
      connectMs: Math.round(performance.now() - started),
      error: error instanceof Error ? error.message : String(error),
      ...(tail?.length ? { stderrTail: tail.slice(-10) } : {}),
    };
  } finally {
    await client?.close().catch(() => {});
  }
}

function printReport(
  context: CommandContext,
  reports: ServerReport[],
  selection: SelectionReport,
  sources: Array<{ path: string; kind: string }>,
  warnings: string[],
): void {
  const palette = createPalette(context.io.stdout, context.io.env);
  const out = (line = '') => context.io.stdout.write(`${line}\n`);
  out(palette.bold('Config files (merge order, later wins):'));
  if (sources.length === 0) out('  none found');
  for (const source of sources) out(`  ${source.kind.padEnd(8)} ${source.path}`);
  for (const warning of warnings) out(`  ${palette.yellow('warning')}: ${warning}`);
  out();
  out(palette.bold('Servers:'));
  if (reports.length === 0) out("  none configured (add one with 'switchboard servers add')");
  for (const report of reports) {
    if (!report.ok) {
      out(`  ${palette.red('✖')} ${report.server}  (${report.target})  failed after ${report.connectMs} ms`);
      out(`      ${report.error}`);
      if (report.stderrTail?.length) {
        out('      stderr (last lines):');
        for (const line of report.stderrTail) out(`        ${line}`);
      }
      out(
        '      Try: run the command by hand to see it start; check the path and env; `switchboard inspect` once fixed.',
      );
      continue;
    }
    const info = report.serverInfo
      ? `${report.serverInfo.name} ${report.serverInfo.version}`
      : 'unknown server';
    out(
      `  ${palette.green('✔')} ${report.server}  (${report.target})  connected in ${report.connectMs} ms — ${info}, MCP ${report.protocolVersion ?? '?'} (${report.era})`,
    );
    if (report.serverCard !== undefined) {
      const negotiated = { protocolVersion: report.protocolVersion, version: report.serverInfo?.version };
      for (const line of describeServerCard(report.serverCard, negotiated)) out(`      ${line}`);
    }
    out(`      ${report.tools} tools, ~${report.estimatedTokens} tokens of tool definitions`);
    for (const [target, provider] of Object.entries(report.providers ?? {})) {
      const state =
        provider.rejected > 0
          ? palette.red(`${provider.rejected} tools rejected`)
          : provider.lossyChanges > 0
            ? palette.yellow(`ok after ${provider.lossyChanges} conversion changes`)
            : palette.green('ok');
      out(`      ${target.padEnd(13)} ${state}`);
      for (const example of provider.examples) out(`        - ${example}`);
    }
  }
  out();
  printSelection(out, palette, selection);
}

/** Runs `switchboard doctor` (its flags and help: `doctorCommandSpec`). */
export async function runDoctorCommand(context: CommandContext): Promise<number> {
  const config = await loadCliConfig(context);
  const names = context.positionals.length ? context.positionals : Object.keys(config.mcpServers);
  const entries = names
    .map((name) => [name, config.mcpServers[name]] as const)
    .filter(
      (pair): pair is readonly [string, ServerConfig] => pair[1] !== undefined && pair[1].enabled !== false,
    );
  // Unknown names are a usage error with suggestions, before anything is spawned.
  pickServers(
    config,
    names.filter((name) => !config.mcpServers[name]),
  );
  const progress = createProgress(context.io, `checking ${entries.length} servers…`);
  const reports = await Promise.all(entries.map(([name, entry]) => checkServer(name, entry)));
  progress.update('checking what the tools tell the model…');
  const trust = await checkTrust(
    context,
    reports,
    Object.fromEntries(entries),
    context.values.trust === true,
  );
  progress.update('loading the embedder and the vector index…');
  const selection = await checkSelection(context);
  progress.done();
  if (context.global.json) {
    printJson(context, {
      sources: config.sources,
      warnings: config.warnings,
      servers: reports.map(({ listed: _listed, ...report }) => report),
      trust: trust.json,
      // `embedder` as before (the info, or the error); `selection` says why, and which index.
      embedder: selection.embedder ?? { error: selection.denseUnavailable?.reason },
      selection,
    });
  } else {
    printReport(context, reports, selection, config.sources, config.warnings);
    printTrust(context, trust);
  }
  return reports.every((report) => report.ok) && !trust.failed ? ExitCode.ok : ExitCode.failure;
}
