/**
 * `loadConfig`: discovers, merges, filters and expands the Switchboard config.
 * Merge order (later wins, per server, whole entry): `~/.switchboard/mcp.json`,
 * `<project>/.switchboard/mcp.json`, extra `files`, then the `SWITCHBOARD_MCP_SERVERS` env JSON.
 */
import { readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, parse as parsePath, resolve } from 'node:path';
import { type Logger, SwitchboardError, silentLogger } from '@switchboard/core';
import {
  type ConfigIssue,
  configErrorCodes,
  createInvalidConfigError,
  describeLocation,
} from './config-error.js';
import { parseEnvFile } from './env-file.js';
import { expandServerConfig, type VariableSource } from './expand-variables.js';
import { formatJsonPath, type JsoncDocument, parseJsonc } from './jsonc-document.js';
import { readJsoncFile, validateDocument } from './read-config-document.js';
import type { ConfigError, ConfigSource, ServerConfig, SwitchboardConfig } from './server-config.js';
import { validateConfigDocument } from './validate-server-config.js';

/** Name of the environment variable holding inline config JSON. */
export const configEnvironmentVariable = 'SWITCHBOARD_MCP_SERVERS';

/** Options of {@link loadConfig}. */
export interface LoadConfigOptions {
  /** Where the project search starts. @default process.cwd() */
  cwd?: string;
  /** The user's home directory. @default os.homedir() */
  home?: string;
  /** Variables for `${VAR}` expansion and `SWITCHBOARD_MCP_SERVERS`. @default process.env */
  env?: VariableSource;
  /** One config file that replaces discovery of the user and project files (the CLI's `--config`). Must exist. */
  configFile?: string;
  /** Further files merged after the discovered ones (before the env JSON). Each must exist. */
  files?: string[];
  /** Overrides any `allowedServers` list in the files. */
  allowedServers?: string[];
  /** Expand `${VAR}` references and read `envFile`s. @default true */
  expand?: boolean;
  /**
   * What a bad server entry (invalid shape, unset variable, unreadable envFile) or an unreadable
   * file does: `'throw'` rejects; `'skip'` leaves it out, reports it in `errors` and the logger,
   * and loads everything else. @default 'throw'
   */
  onError?: 'throw' | 'skip';
  /** Receives warnings (unknown keys, unknown names in `allowedServers`). @default silentLogger */
  logger?: Logger;
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The project directory for `cwd`: the nearest ancestor holding `.switchboard/` or `.git`,
 * stopping below the home directory (whose `.switchboard/` is the user config), else `cwd`.
 */
export async function findProjectDirectory(cwd: string, home: string): Promise<string> {
  const start = resolve(cwd);
  const stop = resolve(home);
  let directory = start;
  while (directory !== stop) {
    if ((await isDirectory(join(directory, '.switchboard'))) || (await exists(join(directory, '.git')))) {
      return directory;
    }
    const parent = dirname(directory);
    if (parent === directory || directory === parsePath(directory).root) break;
    directory = parent;
  }
  return start;
}

interface LoadedEntry {
  /** Absent when the entry was invalid and skipped: it still overrides earlier entries of its name. */
  config?: ServerConfig;
  source: ConfigSource;
  document: JsoncDocument;
}

/** The env JSON may be `{ "mcpServers": {…} }` or the bare map; the bare map is wrapped so paths read the same. */
function wrapBareServerMap(document: JsoncDocument): JsoncDocument {
  const value = document.value;
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && 'mcpServers' in value) {
    return document;
  }
  const root = document.root;
  return {
    text: document.text,
    value: { mcpServers: value },
    root: {
      type: 'object',
      start: root.start,
      end: root.end,
      value: { mcpServers: value },
      members: [{ key: 'mcpServers', keyStart: root.start, value: root }],
    },
  };
}

/** Loads and merges the Switchboard config; throws `SwitchboardError` (`CONFIG_*`) naming file and JSON path. */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<SwitchboardConfig> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const home = resolve(options.home ?? homedir());
  const variables = options.env ?? process.env;
  const logger = options.logger ?? silentLogger;
  const warnings: string[] = [];
  const warn = (message: string, context: Record<string, unknown>): void => {
    warnings.push(message);
    logger.warn(context, message);
  };

  const candidates: Array<ConfigSource & { required: boolean }> = [];
  if (options.configFile !== undefined) {
    candidates.push({ path: resolve(cwd, options.configFile), kind: 'file', required: true });
  } else {
    const userFile = join(home, '.switchboard', 'mcp.json');
    candidates.push({ path: userFile, kind: 'user', required: false });
    const projectFile = join(await findProjectDirectory(cwd, home), '.switchboard', 'mcp.json');
    if (projectFile !== userFile) candidates.push({ path: projectFile, kind: 'project', required: false });
  }
  for (const file of options.files ?? [])
    candidates.push({ path: resolve(cwd, file), kind: 'file', required: true });

  const sources: ConfigSource[] = [];
  const entries = new Map<string, LoadedEntry>();
  let allowedServers: string[] | undefined;

  const errors: ConfigError[] = [];
  const skip = options.onError === 'skip';
  const fail = (error: unknown, source: ConfigSource, server?: string): void => {
    if (!skip || !SwitchboardError.isInstance(error)) throw error;
    errors.push(server === undefined ? { source, error } : { server, source, error });
    logger.warn({ file: source.path, ...(server === undefined ? {} : { server }) }, error.message);
  };

  const merge = (document: JsoncDocument, source: ConfigSource): void => {
    const validated = skip
      ? validateLeniently(document, source, fail)
      : validateDocument(document, source.path);
    for (const warning of validated.warnings) warn(warning, { file: source.path });
    sources.push(source);
    for (const [name, config] of Object.entries(validated.servers)) {
      // Delete first so an overriding entry moves to its own source's position in key order.
      entries.delete(name);
      entries.set(name, config ? { config, source, document } : { source, document });
    }
    if (validated.allowedServers) allowedServers = validated.allowedServers;
  };

  for (const candidate of candidates) {
    const source: ConfigSource = { path: candidate.path, kind: candidate.kind };
    try {
      const document = await readJsoncFile(candidate.path);
      if (!document) {
        if (candidate.required) {
          throw new SwitchboardError({
            code: configErrorCodes.notFound,
            message: `Config file ${candidate.path} does not exist. Check the path, or create it with "switchboard servers add".`,
            context: { file: candidate.path },
          });
        }
        continue;
      }
      merge(document, source);
    } catch (error) {
      fail(error, source);
    }
  }

  const inline = variables[configEnvironmentVariable];
  if (inline !== undefined && inline.trim() !== '') {
    const source: ConfigSource = { path: `env:${configEnvironmentVariable}`, kind: 'env' };
    try {
      merge(wrapBareServerMap(parseJsonc(inline, source.path)), source);
    } catch (error) {
      fail(error, source);
    }
  }

  if (options.allowedServers) allowedServers = options.allowedServers;
  if (allowedServers) {
    for (const name of allowedServers) {
      if (!entries.has(name)) {
        const known = [...entries.keys()];
        warn(
          `allowedServers lists "${name}", but no config defines a server of that name (known: ${known.length ? known.join(', ') : 'none'}).`,
          { server: name },
        );
      }
    }
  }

  const mcpServers: Record<string, ServerConfig> = {};
  const serverSources: Record<string, ConfigSource> = {};
  for (const [name, entry] of entries) {
    if (allowedServers && !allowedServers.includes(name)) continue;
    let config = entry.config;
    if (!config) continue;
    // A disabled server keeps its raw text: its variables need not be set until it is enabled.
    if (options.expand !== false && config.enabled !== false) {
      const path = ['mcpServers', name];
      const location = { file: entry.source.path, server: name, path, document: entry.document };
      try {
        config = expandServerConfig(config, variables, location);
        checkUrl(config, location);
        if (config.cwd === '~' || config.cwd?.startsWith('~/')) {
          config = { ...config, cwd: join(home, config.cwd.slice(1)) };
        }
        config = await applyEnvFile(config, name, entry.source, home);
      } catch (error) {
        fail(error, entry.source, name);
        continue;
      }
    }
    mcpServers[name] = config;
    serverSources[name] = entry.source;
  }

  const result: SwitchboardConfig = { mcpServers, sources, serverSources, warnings, errors };
  if (allowedServers) result.allowedServers = allowedServers;
  return result;
}

/**
 * Validation for `onError: 'skip'`: issues inside one server entry drop that entry (reported as
 * its own error); issues elsewhere (`allowedServers`, the root) are reported and the rest is kept.
 */
function validateLeniently(
  document: JsoncDocument,
  source: ConfigSource,
  fail: (error: unknown, source: ConfigSource, server?: string) => void,
): { servers: Record<string, ServerConfig | undefined>; allowedServers?: string[]; warnings: string[] } {
  const byServer = new Map<string, ConfigIssue[]>();
  const other: ConfigIssue[] = [];
  const warnings: string[] = [];
  const validated = validateConfigDocument(document.value, {
    issue: (path, message) => {
      const server = path[0] === 'mcpServers' && typeof path[1] === 'string' ? path[1] : undefined;
      if (server === undefined) other.push({ path, message });
      else byServer.set(server, [...(byServer.get(server) ?? []), { path, message }]);
    },
    warn: (path, message) =>
      warnings.push(`${formatJsonPath(path)} (${describeLocation(source.path, document, path)}): ${message}`),
  });
  if (other.length > 0) fail(createInvalidConfigError(source.path, document, other), source);
  const servers: Record<string, ServerConfig | undefined> = { ...validated.servers };
  for (const [server, issues] of byServer) {
    servers[server] = undefined;
    fail(createInvalidConfigError(source.path, document, issues), source, server);
  }
  const result: {
    servers: Record<string, ServerConfig | undefined>;
    allowedServers?: string[];
    warnings: string[];
  } = { servers, warnings };
  if (validated.allowedServers) result.allowedServers = validated.allowedServers;
  return result;
}

function checkUrl(
  config: ServerConfig,
  location: { file: string; server: string; path: string[]; document: JsoncDocument },
): void {
  if (config.url === undefined) return;
  let valid = false;
  try {
    valid = ['http:', 'https:', 'ws:', 'wss:'].includes(new URL(config.url).protocol);
  } catch {
    valid = false;
  }
  if (!valid) {
    // The URL itself is not quoted: it may carry a token in its query.
    throw createInvalidConfigError(location.file, location.document, [
      {
        path: [...location.path, 'url'],
        message: `server "${location.server}" has an invalid URL (after variable expansion). Use an absolute http://, https://, ws:// or wss:// URL.`,
      },
    ]);
  }
}

async function applyEnvFile(
  config: ServerConfig,
  name: string,
  source: ConfigSource,
  home: string,
): Promise<ServerConfig> {
  if (config.envFile === undefined) return config;
  let file = config.envFile;
  if (file === '~' || file.startsWith('~/')) file = join(home, file.slice(1));
  // Relative to the file that named it; for the env JSON, relative to the process's cwd.
  if (!isAbsolute(file)) file = resolve(source.kind === 'env' ? process.cwd() : dirname(source.path), file);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new SwitchboardError({
      code: configErrorCodes.notFound,
      message: `Server "${name}" in ${source.path} names envFile ${file}, which cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}). Create it or remove "envFile".`,
      context: { server: name, file: source.path, envFile: file },
      cause: error,
    });
  }
  const { envFile: _envFile, ...rest } = config;
  return { ...rest, env: { ...parseEnvFile(text), ...config.env } };
}
