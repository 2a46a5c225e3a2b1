/**
 * `importConfig`: reads another tool's MCP servers and returns them as Switchboard `ServerConfig`
 * records. A short flow over the host's module (`hosts/`): where the host keeps its files, read
 * each, find its servers, map each entry onto our keys and validate it, resolve the editor's own
 * placeholders, merge. `${VAR}` references stay references (in our `${VAR}` spelling), so
 * importing never copies a secret out of the environment; host keys with no Switchboard meaning
 * are kept in `hostKeys` and reported with file, line and key, never silently dropped.
 */
import { readdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import type { Logger } from '@switchboard/core';
import { SwitchboardError, silentLogger } from '@switchboard/core';
import { configErrorCodes, createInvalidConfigError, describeLocation } from './config-error.js';
import { type InputResolver, readVsCodeInputs, resolvePlaceholders } from './editor-placeholders.js';
import type { VariableSource } from './expand-variables.js';
import { mapHostServerKeys } from './host-server-keys.js';
import { claudeDesktopConfigPath as desktopPath } from './hosts/claude-desktop.js';
import { clineSettingsPath as clinePath } from './hosts/cline.js';
import { isRecord } from './hosts/entry-mapping.js';
import type {
  HostEntry,
  HostFormat,
  HostId,
  HostLocation,
  HostLocationContext,
} from './hosts/host-format.js';
import { hostFormats, hostIds, isHostId } from './hosts/index.js';
import { formatJsonPath, type JsoncDocument, type JsonPathSegment } from './jsonc-document.js';
import { readJsoncFile } from './read-config-document.js';
import type { ConfigSource, ServerConfig } from './server-config.js';
import { describeType, type ValidationSink, validateServerEntry } from './validate-server-config.js';

export type { InputResolver, VsCodeInput } from './editor-placeholders.js';

/**
 * Tools whose config files `importConfig` reads (every host module).
 * @deprecated The same as `HostId`; kept so code written against earlier releases compiles.
 */
export type ImportFormat = HostId;

/**
 * Every format `importConfig` reads.
 * @deprecated The same list as `hostIds`.
 */
export const importFormats: readonly ImportFormat[] = hostIds;

/** Options of {@link importConfig}. */
export interface ImportConfigOptions {
  /** Which tool's config to read. */
  from: ImportFormat;
  /** Read this file instead of the tool's default locations. */
  path?: string;
  /** @default os.homedir() */
  home?: string;
  /** The project directory (for `.mcp.json`, `.cursor/`, `.vscode/` and `${workspaceFolder}`). @default process.cwd() */
  cwd?: string;
  /** Decides the per-platform locations (macOS, Windows, Linux). @default process.platform */
  platform?: NodeJS.Platform;
  /** For `APPDATA`, `USERPROFILE` (Windows), `XDG_CONFIG_HOME` (Linux) and `CODEX_HOME`. @default process.env */
  env?: VariableSource;
  /**
   * Values for VS Code `${input:id}` placeholders. Without one, an input's `default` is used;
   * an input left unresolved is a `CONFIG_INPUT_UNRESOLVED` error listing them all. Mapping an
   * input to `${SOME_ENV_VAR}` keeps the secret out of the written config.
   */
  inputs?: InputResolver;
  /** Receives warnings about skipped or unknown entries. @default silentLogger */
  logger?: Logger;
}

/** The servers an import found. */
export interface ImportedConfig {
  /** Servers by name, later files overriding earlier ones as the tool itself does. */
  mcpServers: Record<string, ServerConfig>;
  /** Files read, in merge order. */
  sources: ConfigSource[];
  /** Which file each server came from. */
  serverSources: Record<string, ConfigSource>;
  /** Entries skipped as invalid and keys kept for the host, with file, line and path. */
  warnings: string[];
}

/** A file `importConfig` looks at, with the part of it that holds servers. */
export type ImportCandidate = HostLocation;

/** Claude Desktop's config file on a platform. */
export function claudeDesktopConfigPath(
  home: string,
  platform: NodeJS.Platform,
  env: VariableSource,
): string {
  return desktopPath({ home, cwd: home, platform, env });
}

/** Cline's `cline_mcp_settings.json`, in VS Code's global storage of the extension. */
export function clineSettingsPath(home: string, platform: NodeJS.Platform, env: VariableSource): string {
  return clinePath({ home, cwd: home, platform, env });
}

/** The files `importConfig` reads for a tool by default, in merge order (later wins). */
export function defaultImportCandidates(from: ImportFormat, options: HostLocationContext): ImportCandidate[] {
  return hostFormats[from].locations(options);
}

/** What the import flow works with, defaults applied. */
interface ImportSettings {
  host: HostFormat;
  context: HostLocationContext;
  path: string | undefined;
  inputs: InputResolver | undefined;
  logger: Logger;
}

/** One server found, mapped and validated. */
interface FoundServer {
  name: string;
  config: ServerConfig;
  path: JsonPathSegment[];
}

/** Reads another tool's MCP config and returns Switchboard server entries. */
export async function importConfig(options: ImportConfigOptions): Promise<ImportedConfig> {
  const settings = importSettings(options);
  const locations = importLocations(settings);
  const result: ImportedConfig = { mcpServers: {}, sources: [], serverSources: {}, warnings: [] };
  const documents = new Map<string, Promise<JsoncDocument | undefined>>();
  let foundAny = false;

  for (const location of locations) {
    for (const file of await filesOf(location)) {
      if (!documents.has(file)) documents.set(file, readJsoncFile(file, settings.host.syntax));
      const document = await documents.get(file);
      if (!document) continue;
      foundAny = true;
      const found = serverEntriesOf(settings, document, file, location);
      if (found === undefined) continue;
      const servers = validateEntries(settings.host, found.entries, file, document, result.warnings);
      const source: ConfigSource = { path: file, kind: location.kind };
      result.sources.push(source);
      const inputs = settings.host.id === 'vscode' ? readVsCodeInputs(document.value, found.serversPath) : [];
      for (const server of servers) {
        const resolved = await resolvePlaceholders(server.config, {
          workspaceFolder: location.workspaceFolder,
          home: settings.context.home,
          inputs,
          resolver: settings.inputs,
          server: server.name,
          file,
          document,
          path: server.path,
        });
        // Later files win, and the winner takes the later position, as the host merges them.
        delete result.mcpServers[server.name];
        result.mcpServers[server.name] = resolved;
        result.serverSources[server.name] = source;
      }
    }
  }
  return finishImport(result, foundAny, locations, settings);
}

/** Step 1: defaults, and the host's module (an unknown format is an error listing the known ones). */
function importSettings(options: ImportConfigOptions): ImportSettings {
  if (!isHostId(options.from)) {
    throw new SwitchboardError({
      code: 'INVALID_ARGUMENT',
      message: `Unknown import format "${String(options.from)}". Use one of ${importFormats.join(', ')}.`,
      context: { from: options.from },
    });
  }
  const home = resolve(options.home ?? homedir());
  const cwd = resolve(options.cwd ?? process.cwd());
  return {
    host: hostFormats[options.from],
    context: { home, cwd, platform: options.platform ?? process.platform, env: options.env ?? process.env },
    path: options.path === undefined ? undefined : resolve(cwd, options.path),
    inputs: options.inputs,
    logger: options.logger ?? silentLogger,
  };
}

/** Step 2: the host's default files, or the locations inside the file given. */
function importLocations(settings: ImportSettings): HostLocation[] {
  const { host, context, path } = settings;
  return path === undefined ? host.locations(context) : host.locationsInFile(path, context);
}

/** The files of a location: itself, or the block files of a folder (Continue), sorted. */
async function filesOf(location: HostLocation): Promise<string[]> {
  const extensions = location.directoryOf;
  if (extensions === undefined) return [location.path];
  const names = await readdir(location.path).catch(() => [] as string[]);
  return names
    .filter((name) => extensions.includes(extname(name)))
    .sort()
    .map((name) => join(location.path, name));
}

/** Step 3: the server entries of a document; a servers container of the wrong type is an error. */
function serverEntriesOf(
  settings: ImportSettings,
  document: JsoncDocument,
  file: string,
  location: HostLocation,
): { entries: HostEntry[]; serversPath: string[] } | undefined {
  const { host, context } = settings;
  const serversPath = host.serversPathIn
    ? host.serversPathIn(document.value, location, context)
    : location.serversPath;
  if (serversPath === undefined) return undefined;
  let servers: unknown = document.value;
  for (const key of serversPath)
    servers = isRecord(servers) && Object.hasOwn(servers, key) ? servers[key] : undefined;
  if (servers === undefined || servers === null) return undefined;
  const fail = (message: string): never => {
    throw createInvalidConfigError(file, document, [{ path: serversPath, message }]);
  };
  if (host.shape === 'list') {
    if (!Array.isArray(servers))
      fail(`expected a list of servers (each with a name), got ${describeType(servers)}.`);
    const entries = (servers as unknown[]).map((raw, index) => ({
      name: isRecord(raw) && typeof raw.name === 'string' ? raw.name : '',
      raw,
      path: [...serversPath, index],
    }));
    return { entries, serversPath };
  }
  if (!isRecord(servers)) fail(`expected an object of servers by name, got ${describeType(servers)}.`);
  const entries = Object.entries(servers as Record<string, unknown>).map(([name, raw]) => ({
    name,
    raw,
    path: [...serversPath, name],
  }));
  return { entries, serversPath };
}

/**
 * Step 4: each entry mapped onto our keys by the host module and validated. An invalid entry is
 * skipped with a warning naming file, line and the host's key; the others are kept.
 */
function validateEntries(
  host: HostFormat,
  entries: HostEntry[],
  file: string,
  document: JsoncDocument,
  warnings: string[],
): FoundServer[] {
  const where = (path: JsonPathSegment[]) =>
    `${formatJsonPath(path)} (${describeLocation(file, document, path)})`;
  const servers: FoundServer[] = [];
  for (const { name, raw, path } of entries) {
    const problems: string[] = [];
    if (name.trim() === '') {
      problems.push(`${where(path)}: a server needs a non-empty name.`);
    } else if (!isRecord(raw)) {
      problems.push(
        `${where(path)}: expected a server object such as { "command": "…" }, got ${describeType(raw)}.`,
      );
    }
    if (problems.length > 0 || !isRecord(raw)) {
      warnings.push(`Skipped server "${name}" from ${file}: ${problems.join('; ')}`);
      continue;
    }
    const mapped = mapHostServerKeys(host.id, raw);
    if (mapped.skip !== undefined) {
      warnings.push(
        `Skipped server "${name}" from ${file} (${describeLocation(file, document, path)}): ${mapped.skip}`,
      );
      continue;
    }
    // The validator names our keys; a key the host module renamed is reported under the host's name.
    const hostPath = (issuePath: JsonPathSegment[]) => {
      const field = issuePath[path.length];
      const hostField = typeof field === 'string' ? (mapped.renamed[field] ?? field) : field;
      return hostField === undefined ? issuePath : [...path, hostField, ...issuePath.slice(path.length + 1)];
    };
    const sink: ValidationSink = {
      issue: (issuePath, message) => problems.push(`${where(hostPath(issuePath))}: ${message}`),
      warn: (issuePath, message) => warnings.push(`${where(hostPath(issuePath))}: ${message}`),
    };
    const config = validateServerEntry(mapped.entry, path, sink);
    if (config === undefined || problems.length > 0) {
      warnings.push(`Skipped server "${name}" from ${file}: ${problems.join('; ')}`);
      continue;
    }
    for (const key of mapped.reported) {
      warnings.push(
        `${where([...path, key])}: kept for exporting back to ${host.title}; Switchboard does not use it.`,
      );
    }
    if (Object.keys(mapped.kept).length > 0) config.hostKeys = { ...config.hostKeys, [host.id]: mapped.kept };
    servers.push({ name, config, path });
  }
  return servers;
}

/** Step 5: nothing found is an error naming where it looked; warnings go to the logger. */
function finishImport(
  result: ImportedConfig,
  foundAny: boolean,
  locations: HostLocation[],
  settings: ImportSettings,
): ImportedConfig {
  const paths = [...new Set(locations.map((location) => location.path))];
  if (!foundAny) {
    throw new SwitchboardError({
      code: configErrorCodes.notFound,
      message: `No ${settings.host.id} config found (looked at ${paths.join(', ')}). Pass the file's path explicitly.`,
      context: { from: settings.host.id, paths },
    });
  }
  if (Object.keys(result.mcpServers).length === 0 && result.warnings.length === 0) {
    result.warnings.push(`No MCP servers found in ${paths.join(', ')}.`);
  }
  for (const warning of result.warnings) settings.logger.warn({ from: settings.host.id }, warning);
  return result;
}
