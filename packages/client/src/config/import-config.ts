/**
 * `importConfig`: reads the MCP server lists of Claude Desktop, Claude Code, Cursor and VS Code
 * and returns them as Switchboard `ServerConfig` records. `${VAR}`/`${env:VAR}` references are
 * kept as written (so importing never copies a secret from the environment into a file); editor
 * placeholders that only the editor knows (`${workspaceFolder}`, `${userHome}`, VS Code's
 * `${input:id}`) are resolved here.
 */
import { homedir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import type { Logger } from '@switchboard/core';
import { SwitchboardError, silentLogger } from '@switchboard/core';
import {
  type ConfigIssue,
  configErrorCodes,
  createInvalidConfigError,
  describeLocation,
} from './config-error.js';
import type { VariableSource } from './expand-variables.js';
import { mapHostServerKeys } from './host-server-keys.js';
import { formatJsonPath, type JsoncDocument, type JsonPathSegment } from './jsonc-document.js';
import { readJsoncFile } from './read-config-document.js';
import type { ConfigSource, ServerConfig } from './server-config.js';
import { validateConfigDocument } from './validate-server-config.js';

/** Tools whose config files `importConfig` reads. */
export type ImportFormat =
  | 'claude-desktop'
  | 'claude-code'
  | 'cursor'
  | 'vscode'
  | 'gemini-cli'
  | 'cline'
  | 'codex';

/** Every format `importConfig` reads. */
export const importFormats: readonly ImportFormat[] = [
  'claude-desktop',
  'claude-code',
  'cursor',
  'vscode',
  'gemini-cli',
  'cline',
  'codex',
];

/** A VS Code `inputs` entry (`promptString` or `pickString`). */
export interface VsCodeInput {
  id: string;
  type?: string;
  description?: string;
  password?: boolean;
  default?: string;
  options?: string[];
}

/** Resolves VS Code `${input:id}` placeholders: a map by id, or a callback (e.g. a CLI prompt). */
export type InputResolver =
  | Record<string, string>
  | ((input: VsCodeInput) => string | undefined | Promise<string | undefined>);

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
  /** Decides Claude Desktop's config location. @default process.platform */
  platform?: NodeJS.Platform;
  /** For `APPDATA` (Windows) and `XDG_CONFIG_HOME` (Linux). @default process.env */
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
  /** Entries skipped as invalid and keys ignored, with file and JSON path. */
  warnings: string[];
}

/** A file `importConfig` looks at, with the part of it that holds servers. */
export interface ImportCandidate extends ConfigSource {
  /** JSON path of the servers map inside the file. */
  serversPath: string[];
  /** Directory `${workspaceFolder}` stands for. */
  workspaceFolder: string;
}

/** Claude Desktop's config file on a platform. */
export function claudeDesktopConfigPath(
  home: string,
  platform: NodeJS.Platform,
  env: VariableSource,
): string {
  if (platform === 'darwin')
    return join(home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');
  if (platform === 'win32') {
    return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Claude', 'claude_desktop_config.json');
  }
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'Claude', 'claude_desktop_config.json');
}

/** Cline's `cline_mcp_settings.json`, in VS Code's global storage of the extension. */
export function clineSettingsPath(home: string, platform: NodeJS.Platform, env: VariableSource): string {
  const settings = ['globalStorage', 'saoudrizwan.claude-dev', 'settings', 'cline_mcp_settings.json'];
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Code', 'User', ...settings);
  if (platform === 'win32')
    return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Code', 'User', ...settings);
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'Code', 'User', ...settings);
}

/** The files `importConfig` reads for a tool by default, in merge order (later wins). */
export function defaultImportCandidates(
  from: ImportFormat,
  options: { home: string; cwd: string; platform: NodeJS.Platform; env: VariableSource },
): ImportCandidate[] {
  const { home, cwd } = options;
  switch (from) {
    case 'claude-desktop':
      return [
        {
          path: claudeDesktopConfigPath(home, options.platform, options.env),
          kind: 'user',
          serversPath: ['mcpServers'],
          workspaceFolder: cwd,
        },
      ];
    case 'claude-code':
      // Claude Code's precedence: local (per project in ~/.claude.json) > project (.mcp.json) > user.
      return [
        { path: join(home, '.claude.json'), kind: 'user', serversPath: ['mcpServers'], workspaceFolder: cwd },
        { path: join(cwd, '.mcp.json'), kind: 'project', serversPath: ['mcpServers'], workspaceFolder: cwd },
        {
          path: join(home, '.claude.json'),
          kind: 'project',
          serversPath: ['projects', cwd, 'mcpServers'],
          workspaceFolder: cwd,
        },
      ];
    case 'cursor':
      return [
        {
          path: join(home, '.cursor', 'mcp.json'),
          kind: 'user',
          serversPath: ['mcpServers'],
          workspaceFolder: cwd,
        },
        {
          path: join(cwd, '.cursor', 'mcp.json'),
          kind: 'project',
          serversPath: ['mcpServers'],
          workspaceFolder: cwd,
        },
      ];
    case 'vscode':
      return [
        {
          path: join(cwd, '.vscode', 'mcp.json'),
          kind: 'project',
          serversPath: ['servers'],
          workspaceFolder: cwd,
        },
      ];
    case 'gemini-cli':
      // Gemini CLI merges user settings, then the project's (project wins).
      return [
        {
          path: join(home, '.gemini', 'settings.json'),
          kind: 'user',
          serversPath: ['mcpServers'],
          workspaceFolder: cwd,
        },
        {
          path: join(cwd, '.gemini', 'settings.json'),
          kind: 'project',
          serversPath: ['mcpServers'],
          workspaceFolder: cwd,
        },
      ];
    case 'codex':
      // Codex reads $CODEX_HOME/config.toml (~/.codex by default), then a project's .codex/config.toml.
      return [
        {
          path: join(options.env.CODEX_HOME ?? join(home, '.codex'), 'config.toml'),
          kind: 'user',
          serversPath: ['mcp_servers'],
          workspaceFolder: cwd,
        },
        {
          path: join(cwd, '.codex', 'config.toml'),
          kind: 'project',
          serversPath: ['mcp_servers'],
          workspaceFolder: cwd,
        },
      ];
    case 'cline':
      return [
        {
          path: clineSettingsPath(home, options.platform, options.env),
          kind: 'user',
          serversPath: ['mcpServers'],
          workspaceFolder: cwd,
        },
      ];
  }
}

function getAt(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const segment of path) {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) return undefined;
    current = Object.hasOwn(current, segment) ? (current as Record<string, unknown>)[segment] : undefined;
  }
  return current;
}

const placeholderPattern = /\$\{(workspaceFolder|userHome|pathSeparator|\/|input:([^}]+))\}/g;

/** Reads another tool's MCP config and returns Switchboard server entries. */
export async function importConfig(options: ImportConfigOptions): Promise<ImportedConfig> {
  const home = resolve(options.home ?? homedir());
  const cwd = resolve(options.cwd ?? process.cwd());
  const env = options.env ?? process.env;
  const logger = options.logger ?? silentLogger;
  const formats = importFormats;
  if (!formats.includes(options.from)) {
    throw new SwitchboardError({
      code: 'INVALID_ARGUMENT',
      message: `Unknown import format "${String(options.from)}". Use one of ${formats.join(', ')}.`,
      context: { from: options.from },
    });
  }

  let candidates: ImportCandidate[];
  if (options.path !== undefined) {
    const path = resolve(cwd, options.path);
    const serversPath =
      options.from === 'vscode' ? ['servers'] : options.from === 'codex' ? ['mcp_servers'] : ['mcpServers'];
    // A project file's ${workspaceFolder} is the folder holding `.vscode/` or `.cursor/`.
    const parent = dirname(path);
    const workspaceFolder = /[\\/]\.(vscode|cursor)$/.test(parent) ? dirname(parent) : parent;
    candidates = [{ path, kind: 'file', serversPath, workspaceFolder }];
    if (options.from === 'claude-code') {
      candidates.push({
        path,
        kind: 'file',
        serversPath: ['projects', cwd, 'mcpServers'],
        workspaceFolder: cwd,
      });
    }
  } else {
    candidates = defaultImportCandidates(options.from, {
      home,
      cwd,
      platform: options.platform ?? process.platform,
      env,
    });
  }

  const result: ImportedConfig = { mcpServers: {}, sources: [], serverSources: {}, warnings: [] };
  const documents = new Map<string, JsoncDocument | undefined>();
  let foundAny = false;

  for (const candidate of candidates) {
    if (!documents.has(candidate.path)) {
      documents.set(
        candidate.path,
        await readJsoncFile(candidate.path, options.from === 'codex' ? 'toml' : 'jsonc'),
      );
    }
    const document = documents.get(candidate.path);
    if (!document) continue;
    foundAny = true;
    let serversPath = candidate.serversPath;
    if (serversPath[0] === 'projects') {
      // Claude Code keys projects by the folder it was started in: use the nearest one above cwd.
      const project = nearestProjectKey(getAt(document.value, ['projects']), cwd, home);
      if (project === undefined) continue;
      serversPath = ['projects', project, 'mcpServers'];
    }
    let servers = getAt(document.value, serversPath);
    // VS Code's user settings.json nests the same shape under "mcp".
    if (
      servers === undefined &&
      options.from === 'vscode' &&
      getAt(document.value, ['mcp', 'servers']) !== undefined
    ) {
      serversPath = ['mcp', 'servers'];
      servers = getAt(document.value, serversPath);
    }
    if (servers === undefined) continue;

    const issues: ConfigIssue[] = [];
    const skipped = new Map<string, string[]>();
    const parentPath = serversPath.slice(0, -1);
    // The host's own key (Codex: `mcp_servers`) in paths, the validator's name for it inside.
    const hostKey = serversPath[serversPath.length - 1] as string;
    const key = hostKey === 'servers' ? 'servers' : 'mcpServers';
    const mapped = mapHostServerKeys(options.from, servers);
    // A key the mapping renamed is reported under the host's name for it, where the file has it.
    const pathOf = (path: JsonPathSegment[]) => {
      const [, server, field, ...rest] = path;
      const hostField =
        typeof server === 'string' && typeof field === 'string'
          ? (mapped.renamed[server]?.[field] ?? field)
          : field;
      return [
        ...parentPath,
        hostKey,
        ...(server === undefined ? [] : [server]),
        ...(hostField === undefined ? [] : [hostField]),
        ...rest,
      ];
    };
    const validated = validateConfigDocument(
      { [key]: mapped.servers },
      {
        issue: (path, message) => {
          const fullPath = pathOf(path);
          const name = path[1];
          if (typeof name !== 'string') issues.push({ path: fullPath, message });
          else {
            const list = skipped.get(name) ?? [];
            list.push(
              `${formatJsonPath(fullPath)} (${describeLocation(candidate.path, document, fullPath)}): ${message}`,
            );
            skipped.set(name, list);
          }
        },
        warn: (path, message) => {
          const fullPath = pathOf(path);
          result.warnings.push(
            `${formatJsonPath(fullPath)} (${describeLocation(candidate.path, document, fullPath)}): ${message}`,
          );
        },
      },
      key,
    );
    if (issues.length > 0) throw createInvalidConfigError(candidate.path, document, issues);
    for (const [name, problems] of skipped) {
      result.warnings.push(`Skipped server "${name}" from ${candidate.path}: ${problems.join('; ')}`);
    }

    const source: ConfigSource = { path: candidate.path, kind: candidate.kind };
    result.sources.push(source);
    const inputs = options.from === 'vscode' ? readVsCodeInputs(document.value) : [];
    for (const [name, config] of Object.entries(validated.servers)) {
      const resolved = await resolvePlaceholders(config, {
        workspaceFolder: candidate.workspaceFolder,
        home,
        inputs,
        resolver: options.inputs,
        server: name,
        file: candidate.path,
        document,
        path: [...serversPath, name],
      });
      delete result.mcpServers[name];
      result.mcpServers[name] = resolved;
      result.serverSources[name] = source;
    }
  }

  if (!foundAny) {
    const paths = [...new Set(candidates.map((candidate) => candidate.path))];
    throw new SwitchboardError({
      code: configErrorCodes.notFound,
      message: `No ${options.from} config found (looked at ${paths.join(', ')}). Pass the file's path explicitly.`,
      context: { from: options.from, paths },
    });
  }
  if (Object.keys(result.mcpServers).length === 0 && result.warnings.length === 0) {
    const paths = [...new Set(candidates.map((candidate) => candidate.path))];
    result.warnings.push(`No MCP servers found in ${paths.join(', ')}.`);
  }
  for (const warning of result.warnings) logger.warn({ from: options.from }, warning);
  return result;
}

/** The nearest folder at or above `cwd` that has an entry; home counts only as cwd itself. */
function nearestProjectKey(projects: unknown, cwd: string, home: string): string | undefined {
  if (typeof projects !== 'object' || projects === null) return undefined;
  let directory = cwd;
  for (;;) {
    if (Object.hasOwn(projects, directory)) return directory;
    const parent = dirname(directory);
    if (parent === directory || parent === home) return undefined;
    directory = parent;
  }
}

function readVsCodeInputs(value: unknown): VsCodeInput[] {
  const inputs = getAt(value, ['inputs']) ?? getAt(value, ['mcp', 'inputs']);
  if (!Array.isArray(inputs)) return [];
  return inputs.filter(
    (input): input is VsCodeInput =>
      typeof input === 'object' && input !== null && typeof (input as VsCodeInput).id === 'string',
  );
}

interface PlaceholderContext {
  workspaceFolder: string;
  home: string;
  inputs: VsCodeInput[];
  resolver: InputResolver | undefined;
  server: string;
  file: string;
  document: JsoncDocument;
  path: JsonPathSegment[];
}

async function resolvePlaceholders(config: ServerConfig, context: PlaceholderContext): Promise<ServerConfig> {
  const unresolved = new Map<string, JsonPathSegment[]>();
  const cache = new Map<string, string | undefined>();

  const resolveInput = async (id: string): Promise<string | undefined> => {
    if (cache.has(id)) return cache.get(id);
    const input = context.inputs.find((candidate) => candidate.id === id) ?? { id };
    let value: string | undefined;
    if (typeof context.resolver === 'function') value = await context.resolver(input);
    else if (context.resolver && Object.hasOwn(context.resolver, id)) value = context.resolver[id];
    // A default is a literal value, so its `$` is escaped for later expansion; resolver values are config text.
    if (value === undefined && typeof input.default === 'string')
      value = input.default.replaceAll('$', '$$$$');
    cache.set(id, value);
    return value;
  };

  const replace = async (text: string, ...segments: JsonPathSegment[]): Promise<string> => {
    if (!text.includes('${')) return text;
    let out = '';
    let last = 0;
    for (const match of text.matchAll(placeholderPattern)) {
      out += text.slice(last, match.index);
      last = match.index + match[0].length;
      const [whole, name, inputId] = match;
      if (inputId !== undefined) {
        const value = await resolveInput(inputId);
        if (value === undefined) {
          if (!unresolved.has(inputId)) unresolved.set(inputId, [...context.path, ...segments]);
          out += whole;
        } else out += value;
      } else if (name === 'workspaceFolder') out += context.workspaceFolder;
      else if (name === 'userHome') out += context.home;
      else out += sep;
    }
    return out + text.slice(last);
  };

  const out: ServerConfig = { ...config };
  if (config.command !== undefined) out.command = await replace(config.command, 'command');
  if (config.args) {
    const args: string[] = [];
    for (const [index, arg] of config.args.entries()) args.push(await replace(arg, 'args', index));
    out.args = args;
  }
  for (const field of ['env', 'headers'] as const) {
    const map = config[field];
    if (!map) continue;
    const next: Record<string, string> = {};
    for (const [key, value] of Object.entries(map)) next[key] = await replace(value, field, key);
    out[field] = next;
  }
  for (const field of ['url', 'cwd', 'envFile'] as const) {
    const value = config[field];
    if (value !== undefined) out[field] = await replace(value, field);
  }

  if (unresolved.size > 0) {
    const details = [...unresolved].map(([id, path]) => {
      const input = context.inputs.find((candidate) => candidate.id === id);
      const description = input?.description ? ` ("${input.description}")` : '';
      return `\${input:${id}}${description} at ${formatJsonPath(path)} (${describeLocation(context.file, context.document, path)})`;
    });
    const example = [...unresolved.keys()][0] as string;
    throw new SwitchboardError({
      code: configErrorCodes.inputUnresolved,
      message:
        `Server "${context.server}" in ${context.file} uses VS Code inputs that have no value: ${details.join('; ')}. ` +
        `Pass them with importConfig({ inputs: { "${example}": "\${MY_ENV_VAR}" } }) (or a callback that prompts), ` +
        'mapping each to an environment variable keeps the secret out of the config file.',
      context: { server: context.server, file: context.file, inputs: [...unresolved.keys()] },
    });
  }
  return out;
}
