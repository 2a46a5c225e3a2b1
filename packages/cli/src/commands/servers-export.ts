/**
 * `switchboard servers export --to <host>` and `switchboard servers install-gateway --to <host>`:
 * writing Switchboard's servers into another tool's config file. Both print the diff first and
 * write only with `--yes` or after a yes at the terminal (`--dry-run` only prints); the library
 * keeps a backup of the old file and refuses when the file changed meanwhile.
 */
import { existsSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  configErrorCodes,
  type HostId,
  hostIds,
  importConfig,
  isHostId,
  loadConfig,
  type ServerConfig,
} from '@switchboard/client';
import { SwitchboardError } from '@switchboard/core';
import {
  addServer,
  applyExportPlan,
  type ExportPlan,
  planExport,
  readConfigFile,
} from '@switchboard/host-config';
import type { CommandContext } from '../cli-command.js';
import { ExitCode, UsageError } from '../cli-error.js';
import { homeOf } from '../cli-home.js';
import { writeWarnings } from '../cli-io.js';
import { configPathForWrite, printJson } from '../cli-session.js';
import { didYouMean } from '../suggest.js';

/** Codes of the errors these commands raise themselves (the library's `configErrorCodes` for the rest). */
export const serversExportErrorCodes = {
  /** The diff was shown but nothing confirmed the write (no --yes, no terminal to ask). */
  confirmationRequired: 'CLI_CONFIRMATION_REQUIRED',
} as const;

/** The name of the one entry `install-gateway` leaves in a host. */
export const gatewayServerName = 'switchboard';

function hostOf(context: CommandContext): HostId {
  const to = context.values.to;
  if (!isHostId(to)) {
    throw new UsageError(
      `--to must be one of ${hostIds.join(', ')}${typeof to === 'string' ? `, not '${to}'.${didYouMean(to, [...hostIds])}` : '.'}`,
    );
  }
  return to;
}

function locationOptions(context: CommandContext) {
  return {
    home: homeOf(context),
    cwd: context.io.cwd,
    env: context.io.env,
    ...(typeof context.values.path === 'string' ? { path: context.values.path } : {}),
  };
}

/** Prints the plan's warnings and diff; returns whether to write. */
async function reviewPlan(context: CommandContext, plan: ExportPlan, what: string): Promise<boolean> {
  const { io, values } = context;
  writeWarnings(io, plan.warnings);
  if (!plan.changed) {
    if (!context.global.json) io.stdout.write(`${plan.file} already has ${what}: nothing to change.\n`);
    return false;
  }
  if (!context.global.json) io.stdout.write(plan.diff.endsWith('\n') ? plan.diff : `${plan.diff}\n`);
  if (values['dry-run'] === true) {
    if (!context.global.json) io.stdout.write(`Dry run: ${plan.file} was not written.\n`);
    return false;
  }
  if (values.yes === true) return true;
  if (!io.confirm) {
    throw new SwitchboardError({
      code: serversExportErrorCodes.confirmationRequired,
      message: `Not written: ${plan.file} would change as shown above. Pass --yes to write it (or --dry-run to only see the diff).`,
      context: { file: plan.file },
    });
  }
  return io.confirm(`Write ${plan.file}?`);
}

function reportWritten(
  context: CommandContext,
  plan: ExportPlan,
  backup: string | undefined,
  extra: object = {},
) {
  if (context.global.json) {
    printJson(context, { ...planSummary(plan), written: true, ...(backup ? { backup } : {}), ...extra });
    return;
  }
  context.io.stdout.write(
    `Wrote ${plan.file}${backup ? ` (the old file is kept as ${backup})` : ''}` +
      `${plan.exported.length ? `: ${plan.exported.join(', ')}` : ''}` +
      `${plan.removed.length ? `; removed ${plan.removed.join(', ')}` : ''}.\n`,
  );
}

function planSummary(plan: ExportPlan) {
  return {
    to: plan.to,
    file: plan.file,
    changed: plan.changed,
    exported: plan.exported,
    skipped: plan.skipped,
    removed: plan.removed,
    warnings: plan.warnings,
    diff: plan.diff,
  };
}

/** `servers export --to <host>`: Switchboard's servers (references unexpanded) into the host's file. */
export async function exportServers(context: CommandContext): Promise<number> {
  const to = hostOf(context);
  // Unexpanded: `${VAR}` is written as the host's reference, never as the variable's value.
  const config = await loadConfig({
    cwd: context.io.cwd,
    home: homeOf(context),
    env: context.io.env,
    expand: false,
    ...(context.global.config ? { configFile: context.global.config } : {}),
  });
  const plan = await planExport({ to, servers: config.mcpServers, ...locationOptions(context) });
  if (!(await reviewPlan(context, plan, 'these servers'))) {
    if (context.global.json) printJson(context, { ...planSummary(plan), written: false });
    return ExitCode.ok;
  }
  const { backup } = await applyExportPlan(plan);
  reportWritten(context, plan, backup);
  return ExitCode.ok;
}

/**
 * The command a host runs for the gateway. The CLI's own `bin.js` under the Node that runs it
 * (absolute paths): it works offline, runs exactly this version, and needs nothing on the PATH of
 * a GUI app (Claude Desktop, VS Code started from the dock see a short PATH without `npx`). A CLI
 * run through `npx` lives in npm's cache, which npm may clean: then `npx -y @switchboard/cli` is
 * the command that keeps working.
 */
export function gatewayEntry(configFile: string): ServerConfig {
  const here = dirname(fileURLToPath(import.meta.url));
  const built = join(here, '..', 'bin.js');
  // Run from the sources (tests, tsx), the built bin is in dist/.
  const bin = existsSync(built) ? built : join(here, '..', '..', 'dist', 'bin.js');
  if (bin.includes(`${sep}_npx${sep}`)) {
    return { command: 'npx', args: ['-y', '@switchboard/cli', 'serve', '--config', configFile] };
  }
  return { command: process.execPath, args: [bin, 'serve', '--config', configFile] };
}

/** True for an entry that already runs Switchboard's gateway (a second install-gateway keeps it out of the copy). */
function isGateway(name: string, entry: ServerConfig): boolean {
  return name === gatewayServerName && (entry.args ?? []).includes('serve');
}

/**
 * `servers install-gateway --to <host>`: the host's servers are copied into Switchboard's config
 * (the originals stay there), then the host's entries are replaced by one that runs
 * `switchboard serve --config <that file>` over stdio.
 */
export async function installGateway(context: CommandContext): Promise<number> {
  const to = hostOf(context);
  const configFile = configPathForWrite(context, context.values.scope);
  const options = locationOptions(context);
  const plan = await planExport({
    to,
    servers: { [gatewayServerName]: gatewayEntry(configFile) },
    mode: 'replace',
    ...options,
  });
  const copied = await serversToCopy(context, to, plan);
  const clashes = await clashingServers(configFile, copied);
  if (clashes.length > 0 && context.values.overwrite !== true) {
    throw new SwitchboardError({
      code: configErrorCodes.serverExists,
      message: `${configFile} already has different servers named ${clashes.join(', ')}; nothing was changed. Rename them there, or pass --overwrite to replace them with the ${to} entries.`,
      context: { file: configFile, servers: clashes },
    });
  }
  if (!context.global.json) {
    const names = Object.keys(copied);
    context.io.stdout.write(
      `${names.length ? `Copying ${names.join(', ')} into ${configFile}, then replacing` : 'Replacing'} the ${to} servers in ${plan.file} with one '${gatewayServerName}' entry:\n`,
    );
  }
  if (!(await reviewPlan(context, plan, "Switchboard's gateway"))) {
    if (context.global.json)
      printJson(context, { ...planSummary(plan), written: false, copied: Object.keys(copied) });
    return ExitCode.ok;
  }
  // Switchboard's config first: the host's entries are only replaced once their copies are safe.
  for (const [name, entry] of Object.entries(copied))
    await addServer(configFile, name, entry, { overwrite: true });
  const { backup } = await applyExportPlan(plan);
  reportWritten(context, plan, backup, { copied: Object.keys(copied), config: configFile });
  if (!context.global.json) {
    context.io.stdout.write(
      `Restart ${to} to use the gateway; 'switchboard servers list --config ${configFile}' shows its servers.\n`,
    );
  }
  return ExitCode.ok;
}

/** The host entries the plan replaces, imported (the gateway entry itself left out). */
async function serversToCopy(
  context: CommandContext,
  to: HostId,
  plan: ExportPlan,
): Promise<Record<string, ServerConfig>> {
  if (plan.before === undefined || plan.removed.length === 0) return {};
  const imported = await importConfig({
    from: to,
    path: plan.file,
    home: homeOf(context),
    cwd: context.io.cwd,
    env: context.io.env,
  });
  writeWarnings(context.io, imported.warnings);
  const copied: Record<string, ServerConfig> = {};
  for (const name of plan.removed) {
    const entry = imported.mcpServers[name];
    if (entry !== undefined && !isGateway(name, entry)) copied[name] = entry;
  }
  const lost = plan.removed.filter((name) => !Object.hasOwn(copied, name) && name !== gatewayServerName);
  if (lost.length > 0) {
    throw new SwitchboardError({
      code: configErrorCodes.invalid,
      message: `The ${to} entries ${lost.join(', ')} in ${plan.file} could not be read (see the warnings above), so replacing them would lose them; nothing was changed. Fix or remove them first.`,
      context: { file: plan.file, servers: lost },
    });
  }
  return copied;
}

/** Names in Switchboard's config whose entries differ from the ones to copy. */
async function clashingServers(configFile: string, copied: Record<string, ServerConfig>): Promise<string[]> {
  const existing = await readConfigFile(configFile);
  const servers = (existing.data.mcpServers ?? {}) as Record<string, unknown>;
  return Object.keys(copied).filter(
    (name) => Object.hasOwn(servers, name) && canonical(servers[name]) !== canonical(copied[name]),
  );
}

/** JSON with sorted keys, so key order does not make two entries differ. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([left], [right]) => left.localeCompare(right)))
      : item,
  );
}
