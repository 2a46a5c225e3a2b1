/**
 * `exportConfig`: writes Switchboard servers into another tool's config file, in that tool's
 * format, editing the file in place: comments and everything else in it stay (JSONC through the
 * member-by-member editor, YAML through the `yaml` Document API, TOML by replacing only the
 * `[mcp_servers.NAME]` tables). A plan comes first (before/after text and a unified diff, secrets
 * masked); writing keeps a backup of the old file beside it and refuses when the file changed
 * since the plan was made. References stay references, in the host's syntax; what each host does
 * with secrets is written in its host module (`@switchboard/client`, `src/config/hosts/*.ts`).
 */
import { constants } from 'node:fs';
import { copyFile, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, resolve, sep } from 'node:path';
import {
  configErrorCodes,
  createRedactor,
  type HostFormat,
  type HostId,
  type HostLocation,
  type HostLocationContext,
  hostFormats,
  hostIds,
  isHostId,
  type ServerConfig,
  type VariableSource,
} from '@switchboard/client';
import {
  createInvalidConfigError,
  describeType,
  isSecretName,
  type JsoncDocument,
  loadYaml,
  parseConfigText,
  parseJsonc,
  type YamlConfigDocument,
} from '@switchboard/client/config-documents';
import { SwitchboardError } from '@switchboard/core';
import type { YAMLSeq } from 'yaml';
import { deepEqual, isRecord, rewriteJsonc, writeFileAtomic } from './config-file-editor.js';
import { loadDiff } from './load-diff.js';
import { editTomlServers } from './toml-section-editor.js';

/** Options of {@link exportConfig} and {@link planExport}. */
export interface ExportConfigOptions {
  /** Which tool's config to write. */
  to: HostId;
  /** The servers to write, by name, as Switchboard's config has them (references unexpanded). */
  servers: Record<string, ServerConfig>;
  /** Write this file instead of the tool's user-level one. */
  path?: string;
  /** `merge`: add and replace these servers, keep the host's others. `replace`: the host keeps only these. @default 'merge' */
  mode?: 'merge' | 'replace';
  /** @default os.homedir() */
  home?: string;
  /** @default process.cwd() */
  cwd?: string;
  /** @default process.platform */
  platform?: NodeJS.Platform;
  /** For `APPDATA`, `USERPROFILE`, `XDG_CONFIG_HOME`, `CODEX_HOME`. @default process.env */
  env?: VariableSource;
  /** Plan only: compute the new text and the diff, write nothing. @default false */
  dryRun?: boolean;
}

/** What an export would do (or did). */
export interface ExportPlan {
  to: HostId;
  /** The host file. */
  file: string;
  /** The file's text before, or undefined when it does not exist yet. */
  before: string | undefined;
  /** The file's text after the export. */
  after: string;
  /** A unified diff of before → after, with secret values masked. */
  diff: string;
  /** Whether the text changes. */
  changed: boolean;
  /** Servers written. */
  exported: string[];
  /** Servers left out (the warnings say why). */
  skipped: string[];
  /** The host's servers removed (`mode: 'replace'`). */
  removed: string[];
  /** What to know or do: variables to set, keys the host has no room for, servers left out. */
  warnings: string[];
}

/** What {@link exportConfig} did. */
export interface ExportResult extends ExportPlan {
  /** Whether the file was written. */
  written: boolean;
  /** The backup of the old file, when one was written. */
  backup?: string;
}

interface ExportTarget {
  host: HostFormat;
  file: string;
  location: HostLocation;
  context: HostLocationContext;
}

/** Plans an export: the new text of the host file and its diff; writes nothing. */
export async function planExport(options: ExportConfigOptions): Promise<ExportPlan> {
  const target = exportTarget(options);
  const before = await readText(target.file);
  const document =
    before === undefined ? undefined : parseConfigText(before, target.file, target.host.syntax);
  const serversPath = serversPathOf(target, document);
  const existing = existingEntries(target, document, serversPath);
  const exported = exportEntries(target, options.servers, existing);
  const removed =
    options.mode === 'replace'
      ? [...existing.keys()].filter((name) => !Object.hasOwn(exported.entries, name))
      : [];
  const rendered = renderDocument(target, before, document, serversPath, existing, exported, removed);
  const after = rendered ?? before ?? '';
  return {
    to: target.host.id,
    file: target.file,
    before,
    after,
    diff: maskedDiff(target.file, before, after, options.servers, existing),
    changed: rendered !== undefined && rendered !== before,
    exported: Object.keys(exported.entries),
    skipped: exported.skipped,
    removed,
    warnings: exported.warnings,
  };
}

/**
 * Writes a plan: a backup of the old file first (`<file>.bak-<timestamp>`, same permissions),
 * then the new text atomically. Refuses with `CONFIG_CHANGED_MEANWHILE` when the file is no longer
 * what the plan was made from (an editor saved it meanwhile), so nothing of theirs is lost.
 */
export async function applyExportPlan(
  plan: ExportPlan,
  now: Date = new Date(),
): Promise<{ backup?: string }> {
  const current = await readText(plan.file);
  if (current !== plan.before) {
    throw new SwitchboardError({
      code: configErrorCodes.changedMeanwhile,
      message: `${plan.file} changed since the export was planned; nothing was written. Run the export again to see the new diff.`,
      context: { file: plan.file },
    });
  }
  if (!plan.changed) return {};
  let backup: string | undefined;
  if (current !== undefined) {
    backup = `${plan.file}.bak-${now
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z')}`;
    try {
      // COPYFILE_EXCL: never overwrite an earlier backup.
      await copyFile(plan.file, backup, constants.COPYFILE_EXCL);
    } catch (error) {
      throw new SwitchboardError({
        code: configErrorCodes.io,
        message: `Cannot write the backup ${backup} of ${plan.file}: ${(error as Error).message}. Nothing was written.`,
        context: { file: plan.file, backup },
        cause: error,
      });
    }
  }
  await writeFileAtomic(plan.file, plan.after);
  return backup === undefined ? {} : { backup };
}

/** Exports servers to a host's config file (see {@link planExport}; with `dryRun`, only plans). */
export async function exportConfig(options: ExportConfigOptions): Promise<ExportResult> {
  const plan = await planExport(options);
  if (options.dryRun || !plan.changed) return { ...plan, written: false };
  const { backup } = await applyExportPlan(plan);
  return { ...plan, written: true, ...(backup === undefined ? {} : { backup }) };
}

/** Step 1: the host module and the file to write. */
function exportTarget(options: ExportConfigOptions): ExportTarget {
  if (!isHostId(options.to)) {
    throw new SwitchboardError({
      code: 'INVALID_ARGUMENT',
      message: `Unknown export format "${String(options.to)}". Use one of ${hostIds.join(', ')}.`,
      context: { to: options.to },
    });
  }
  const host = hostFormats[options.to];
  const home = resolve(options.home ?? homedir());
  const cwd = resolve(options.cwd ?? process.cwd());
  const context: HostLocationContext = {
    home,
    cwd,
    platform: options.platform ?? process.platform,
    env: options.env ?? process.env,
  };
  const location =
    options.path === undefined
      ? host.exportLocation(context)
      : (host.locationsInFile(resolve(cwd, options.path), context)[0] as HostLocation);
  return { host, file: location.path, location, context };
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new SwitchboardError({
      code: configErrorCodes.io,
      message: `Cannot read ${file}: ${(error as Error).message}. Check that it is a readable file.`,
      context: { file },
      cause: error,
    });
  }
}

/** Step 2: where the servers go in this document (VS Code's settings.json nests them under `mcp`). */
function serversPathOf(target: ExportTarget, document: JsoncDocument | undefined): string[] {
  const { host, location, context } = target;
  if (document === undefined || host.serversPathIn === undefined) return location.serversPath;
  return host.serversPathIn(document.value, location, context) ?? location.serversPath;
}

function valueAt(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const key of path)
    current = isRecord(current) && Object.hasOwn(current, key) ? current[key] : undefined;
  return current;
}

/**
 * Step 3: the host's current entries by name (a list's items by their `name`). A document or a
 * servers container of the wrong type is an error with file and line: editing it would lose it.
 */
function existingEntries(
  target: ExportTarget,
  document: JsoncDocument | undefined,
  serversPath: string[],
): Map<string, unknown> {
  const { host, file } = target;
  const servers = valueAt(document?.value, serversPath);
  const entries = new Map<string, unknown>();
  if (
    document !== undefined &&
    !isRecord(document.value) &&
    !(host.syntax === 'yaml' && document.value === null)
  ) {
    throw createInvalidConfigError(file, document, [
      {
        path: [],
        message: `expected a mapping of settings, got ${describeType(document.value)}. Fix the file first.`,
      },
    ]);
  }
  const wanted = host.shape === 'list' ? Array.isArray(servers) : isRecord(servers);
  if (document !== undefined && servers !== undefined && servers !== null && !wanted) {
    throw createInvalidConfigError(file, document, [
      {
        path: serversPath,
        message: `expected ${host.shape === 'list' ? 'a list of servers' : 'an object of servers by name'}, got ${describeType(servers)}. Fix the file first.`,
      },
    ]);
  }
  if (host.shape === 'list') {
    if (Array.isArray(servers)) {
      for (const item of servers)
        if (isRecord(item) && typeof item.name === 'string') entries.set(item.name, item);
    }
  } else if (isRecord(servers)) {
    for (const [name, entry] of Object.entries(servers)) entries.set(name, entry);
  }
  return entries;
}

interface ExportedEntries {
  entries: Record<string, Record<string, unknown>>;
  inputs: Record<string, unknown>[];
  skipped: string[];
  warnings: string[];
}

/** Step 4: each server in the host's format, through the host module. */
function exportEntries(
  target: ExportTarget,
  servers: Record<string, ServerConfig>,
  existing: Map<string, unknown>,
): ExportedEntries {
  const { host } = target;
  const result: ExportedEntries = { entries: {}, inputs: [], skipped: [], warnings: [] };
  const folder = projectFolder(target);
  for (const [name, config] of Object.entries(servers)) {
    const server =
      folder === undefined
        ? config
        : withWorkspacePlaceholder(config, folder, host.workspacePlaceholder as string);
    const exported = host.fromServerConfig(server, { name, existing: existing.get(name) });
    result.warnings.push(...exported.warnings);
    if (exported.entry === undefined) {
      result.skipped.push(name);
      continue;
    }
    result.entries[name] = JSON.parse(JSON.stringify(exported.entry)) as Record<string, unknown>;
    result.inputs.push(...(exported.inputs ?? []));
  }
  return result;
}

/** The project folder of a project-level file (`.vscode/mcp.json`), for hosts with a placeholder for it. */
function projectFolder(target: ExportTarget): string | undefined {
  const { host, location, file } = target;
  if (host.workspacePlaceholder === undefined) return undefined;
  if (
    location.kind === 'project' ||
    (location.kind === 'file' && location.workspaceFolder !== dirname(file))
  ) {
    return location.workspaceFolder;
  }
  return undefined;
}

/** Paths inside the project folder written as `${workspaceFolder}/…`, as import resolved them. */
function withWorkspacePlaceholder(config: ServerConfig, folder: string, placeholder: string): ServerConfig {
  const swap = (value: string) =>
    value === folder ? placeholder : value.split(`${folder}${sep}`).join(`${placeholder}${sep}`);
  const out: ServerConfig = { ...config };
  for (const key of ['command', 'cwd', 'envFile'] as const) {
    const value = config[key];
    if (value !== undefined) out[key] = swap(value);
  }
  if (config.args) out.args = config.args.map(swap);
  return out;
}

/** Step 5: the new text, edited in place in the document's own syntax; undefined when nothing changes. */
function renderDocument(
  target: ExportTarget,
  before: string | undefined,
  document: JsoncDocument | undefined,
  serversPath: string[],
  existing: Map<string, unknown>,
  exported: ExportedEntries,
  removed: string[],
): string | undefined {
  const changedEntries = Object.fromEntries(
    Object.entries(exported.entries).filter(([name, entry]) => !deepEqual(existing.get(name), entry)),
  );
  if (Object.keys(changedEntries).length === 0 && removed.length === 0 && exported.inputs.length === 0) {
    return undefined;
  }
  const { host, file } = target;
  if (host.syntax === 'toml') {
    const servers = valueAt(document?.value, serversPath);
    return editTomlServers(
      before ?? '',
      serversPath.join('.'),
      { set: changedEntries, remove: removed },
      file,
      isRecord(servers) ? servers : {},
    );
  }
  if (host.syntax === 'yaml')
    return renderYaml(host, document as YamlConfigDocument | undefined, serversPath, changedEntries, removed);
  return renderJsonc(file, document, serversPath, exported, removed);
}

function renderJsonc(
  file: string,
  document: JsoncDocument | undefined,
  serversPath: string[],
  exported: ExportedEntries,
  removed: string[],
): string {
  const base = document ?? parseJsonc('{}\n', file);
  const data = structuredClone(isRecord(base.value) ? base.value : {});
  let container: Record<string, unknown> = data;
  for (const key of serversPath) {
    if (!isRecord(container[key])) container[key] = {};
    container = container[key] as Record<string, unknown>;
  }
  for (const name of removed) delete container[name];
  Object.assign(container, exported.entries);
  if (exported.inputs.length > 0) {
    // VS Code's password prompts go beside the servers map, once per id.
    let parent: Record<string, unknown> = data;
    for (const key of serversPath.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
    const inputs = Array.isArray(parent.inputs) ? [...parent.inputs] : [];
    for (const input of exported.inputs) {
      if (!inputs.some((known) => isRecord(known) && known.id === input.id)) inputs.push(input);
    }
    parent.inputs = inputs;
  }
  return rewriteJsonc(base, data);
}

function renderYaml(
  host: HostFormat,
  document: YamlConfigDocument | undefined,
  serversPath: string[],
  changed: Record<string, Record<string, unknown>>,
  removed: string[],
): string {
  const { Document, isMap, isSeq } = loadYaml();
  // A new Continue config needs its header (name, version, schema) to be read at all.
  const yaml =
    document?.yaml ??
    new Document(host.id === 'continue' ? { name: 'Switchboard', version: '0.0.1', schema: 'v1' } : {});
  if (host.shape === 'list') {
    let list = yaml.getIn(serversPath);
    if (!isSeq(list)) {
      yaml.setIn(serversPath, yaml.createNode([]));
      list = yaml.getIn(serversPath);
    }
    const items = (list as YAMLSeq).items;
    const indexOf = (name: string) => items.findIndex((item) => isMap(item) && item.get('name') === name);
    for (const name of removed) {
      const index = indexOf(name);
      if (index >= 0) items.splice(index, 1);
    }
    for (const [name, entry] of Object.entries(changed)) {
      const index = indexOf(name);
      const node = yaml.createNode(entry);
      if (index >= 0) items[index] = node as never;
      else items.push(node as never);
    }
  } else {
    for (const name of removed) yaml.deleteIn([...serversPath, name]);
    for (const [name, entry] of Object.entries(changed))
      yaml.setIn([...serversPath, name], yaml.createNode(entry));
  }
  return yaml.toString();
}

/** The diff, with secret values (token-like env and header values of the servers, old and new) masked. */
function maskedDiff(
  file: string,
  before: string | undefined,
  after: string,
  servers: Record<string, ServerConfig>,
  existing: Map<string, unknown>,
): string {
  const secrets: string[] = [];
  const collect = (entry: unknown) => {
    if (!isRecord(entry)) return;
    const options = entry.requestOptions;
    for (const map of [
      entry.env,
      entry.envs,
      entry.headers,
      entry.http_headers,
      isRecord(options) ? options.headers : undefined,
    ]) {
      if (!isRecord(map)) continue;
      for (const [key, value] of Object.entries(map)) {
        if (typeof value !== 'string' || !isSecretName(key)) continue;
        secrets.push(value);
        // "Bearer abc": the token alone may show where the scheme does not.
        const token = /^\s*\w+\s+(.+)$/.exec(value)?.[1];
        if (token) secrets.push(token);
      }
    }
  };
  for (const config of Object.values(servers)) collect(config);
  for (const entry of existing.values()) collect(entry);
  // References are not secrets; masking them would hide what the export writes.
  const redactor = createRedactor(secrets.filter((value) => !/\$\{/.test(value)));
  const patch = loadDiff().createTwoFilesPatch(
    file,
    file,
    before ?? '',
    after,
    before === undefined ? '(new file)' : '(current)',
    '(after export)',
  );
  return redactor.redact(patch);
}
