/**
 * `switchboard servers list | add | remove | import | export | install-gateway`: edits the config
 * in the `mcpServers` format; export and install-gateway (other tools' files) are in servers-export.ts.
 */
import { hostIds, importConfig, isHostId, type ServerConfig } from '@switchboard/client';
import { SwitchboardError } from '@switchboard/core';
import { addServer, readConfigFile, removeServer } from '@switchboard/host-config';
import type { CommandContext } from '../cli-command.js';
import { ExitCode, UsageError } from '../cli-error.js';
import { homeOf } from '../cli-home.js';
import { formatTable, writeWarnings } from '../cli-io.js';
import { configPathForWrite, loadCliConfig, printJson } from '../cli-session.js';
import { didYouMean } from '../suggest.js';
import { exportServers, installGateway } from './servers-export.js';

/** `--header` pairs as an entry's `headers`, or nothing when none were given. */
function headersOf(values: unknown): { headers?: Record<string, string> } {
  const headers = parsePairs(values, '--header');
  return headers ? { headers } : {};
}

/** `--env` pairs as an entry's `env`, or nothing when none were given. */
function envOf(values: unknown): { env?: Record<string, string> } {
  const env = parsePairs(values, '--env');
  return env ? { env } : {};
}

function parsePairs(values: unknown, flag: string): Record<string, string> | undefined {
  if (!Array.isArray(values) || values.length === 0) return undefined;
  const pairs: Record<string, string> = {};
  for (const item of values as string[]) {
    const at = item.indexOf('=');
    if (at <= 0) throw new UsageError(`${flag} takes KEY=VALUE, got '${item}'.`);
    pairs[item.slice(0, at)] = item.slice(at + 1);
  }
  return pairs;
}

/** Where a server runs, without env values or headers (they may hold secrets). */
export function describeTarget(entry: ServerConfig): string {
  if (entry.url) return entry.url;
  return [entry.command, ...(entry.args ?? [])].filter(Boolean).join(' ');
}

async function list(context: CommandContext): Promise<number> {
  const config = await loadCliConfig(context);
  const rows = Object.entries(config.mcpServers).map(([name, entry]) => ({
    name,
    transport: entry.type ?? (entry.url ? 'http' : 'stdio'),
    target: describeTarget(entry),
    enabled: entry.enabled !== false,
    source: config.serverSources[name]?.path ?? '',
  }));
  if (context.global.json) {
    printJson(context, { servers: rows, sources: config.sources, warnings: config.warnings });
    return ExitCode.ok;
  }
  if (rows.length === 0) {
    context.io.stdout.write(
      `No servers configured. Add one with 'switchboard servers add <name> -- <command> [args…]'.\n`,
    );
    return ExitCode.ok;
  }
  context.io.stdout.write(
    `${formatTable(
      ['name', 'transport', 'target', 'enabled', 'source'],
      rows.map((row) => [row.name, row.transport, row.target, row.enabled ? 'yes' : 'no', row.source]),
    )}\n`,
  );
  return ExitCode.ok;
}

async function add(context: CommandContext, name: string | undefined): Promise<number> {
  if (!name) throw new UsageError('servers add needs a server name.');
  const { values, rest } = context;
  const url = typeof values.url === 'string' ? values.url : undefined;
  if (url && rest.length) throw new UsageError('give either --url or "-- <command>", not both.');
  if (!url && rest.length === 0) throw new UsageError('give the server\'s command after "--", or --url URL.');
  const entry: ServerConfig = url
    ? {
        url,
        ...(typeof values.type === 'string'
          ? { type: values.type as NonNullable<ServerConfig['type']> }
          : {}),
        ...headersOf(values.header),
      }
    : {
        command: rest[0]!,
        args: rest.slice(1),
        ...envOf(values.env),
      };
  const path = configPathForWrite(context, values.scope);
  await addServer(path, name, entry, { overwrite: values.overwrite === true });
  if (context.global.json) printJson(context, { added: name, file: path });
  else context.io.stdout.write(`Added server '${name}' to ${path}.\n`);
  return ExitCode.ok;
}

async function remove(context: CommandContext, name: string | undefined): Promise<number> {
  if (!name) throw new UsageError('servers remove needs a server name.');
  const path = configPathForWrite(context, context.values.scope);
  try {
    await removeServer(path, name);
  } catch (error) {
    if (SwitchboardError.isInstance(error) && Array.isArray(error.context.known)) {
      throw new SwitchboardError({
        code: error.code,
        message: `${error.message}${didYouMean(name, error.context.known as string[])}`,
        context: error.context,
        cause: error,
      });
    }
    throw error;
  }
  if (context.global.json) printJson(context, { removed: name, file: path });
  else context.io.stdout.write(`Removed server '${name}' from ${path}.\n`);
  return ExitCode.ok;
}

async function importServers(context: CommandContext): Promise<number> {
  const from = context.values.from;
  if (typeof from !== 'string' || !isHostId(from)) {
    throw new UsageError(`--from must be one of ${hostIds.join(', ')}.`);
  }
  const imported = await importConfig({
    from,
    home: homeOf(context),
    cwd: context.io.cwd,
    env: context.io.env,
    ...(typeof context.values.path === 'string' ? { path: context.values.path } : {}),
  });
  const path = configPathForWrite(context, context.values.scope);
  const existing = await readConfigFile(path).catch(() => undefined);
  const already = new Set(Object.keys((existing?.data as { mcpServers?: object })?.mcpServers ?? {}));
  const added: string[] = [];
  const skipped: string[] = [];
  for (const [name, entry] of Object.entries(imported.mcpServers)) {
    if (already.has(name) && context.values.overwrite !== true) {
      skipped.push(name);
      continue;
    }
    await addServer(path, name, entry, { overwrite: true });
    added.push(name);
  }
  if (context.global.json) {
    printJson(context, {
      file: path,
      added,
      skipped,
      sources: imported.sources,
      warnings: imported.warnings,
    });
    return ExitCode.ok;
  }
  writeWarnings(context.io, imported.warnings);
  context.io.stdout.write(
    `Imported ${added.length} server${added.length === 1 ? '' : 's'} from ${imported.sources.map((source) => source.path).join(', ') || from} into ${path}` +
      `${added.length ? `: ${added.join(', ')}` : ''}.\n`,
  );
  if (skipped.length) {
    context.io.stdout.write(`Kept existing ${skipped.join(', ')} (use --overwrite to replace).\n`);
  }
  return ExitCode.ok;
}

/** Runs `switchboard servers` (its flags and help: `serversCommandSpec`). */
export async function runServersCommand(context: CommandContext): Promise<number> {
  const [action, name, ...extra] = context.positionals;
  if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}'.`);
  switch (action ?? 'list') {
    case 'list':
      return list(context);
    case 'add':
      return add(context, name);
    case 'remove':
      return remove(context, name);
    case 'import':
      return importServers(context);
    case 'export':
      return exportServers(context);
    case 'install-gateway':
      return installGateway(context);
    default:
      throw new UsageError(
        `unknown action '${action}'.${didYouMean(action ?? '', ['list', 'add', 'remove', 'import', 'export', 'install-gateway'])}`,
      );
  }
}
