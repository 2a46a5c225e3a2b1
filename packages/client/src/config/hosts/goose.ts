/**
 * Goose: the `extensions:` map of `config.yaml` (Linux and macOS `$XDG_CONFIG_HOME/goose/` or
 * `~/.config/goose/`, Windows `%APPDATA%\Block\goose\config\`), YAML. Keys: `type` (`stdio`,
 * `sse`, `streamable_http`; `builtin`, `platform`, `frontend` and `inline_python` extensions run
 * inside Goose and are skipped with a warning), `cmd` → `command`, `args`, `envs` → `env`,
 * `env_keys` (variables Goose reads from its keyring or environment by name → `env` entries
 * `NAME: ${NAME}`), `uri` → `url`, `headers`, `timeout` (seconds) → `timeouts.callMs`, `enabled`,
 * `description`; `name`, `display_name`, `bundled` and `available_tools` are Goose's own and are
 * kept quietly.
 *
 * Export rule: Goose has no references inside strings, only variables by name: an env entry
 * `${VAR}` becomes `env_keys: [KEY]` (when VAR is not KEY a warning says to set KEY), and a
 * literal secret env value becomes an `env_keys` entry with a warning naming the variable to set.
 * A reference elsewhere (command, args, url, headers) leaves the server out.
 */
import { join } from 'node:path';
import type { ServerConfig } from '../server-config.js';
import { createEntryExport, keptKeys } from './entry-export.js';
import { isRecord, mapEntry } from './entry-mapping.js';
import { isSecretName, splitReferences } from './env-references.js';
import type { HostFormat, HostLocationContext } from './host-format.js';
import { appData, fileLocation, location, xdgConfig } from './host-paths.js';

function configFile(context: HostLocationContext): string {
  if (context.platform === 'win32') return join(appData(context), 'Block', 'goose', 'config', 'config.yaml');
  if (context.platform === 'darwin') return join(context.home, '.config', 'goose', 'config.yaml');
  return join(xdgConfig(context), 'goose', 'config.yaml');
}

const inProcessTypes = new Set(['builtin', 'platform', 'frontend', 'inline_python']);
const gooseTypes: Record<string, string> = { stdio: 'stdio', sse: 'sse', http: 'streamable_http' };

/** Goose's format. */
export const gooseHost: HostFormat = {
  id: 'goose',
  title: 'Goose',
  syntax: 'yaml',
  locations: (context) => [location(configFile(context), ['extensions'], context)],
  exportLocation: (context) => location(configFile(context), ['extensions'], context),
  locationsInFile: (path) => [fileLocation(path, ['extensions'])],
  toServerConfig(raw) {
    const mapping = mapEntry(raw)
      .rename('cmd', 'command')
      .rename('envs', 'env')
      .rename('uri', 'url')
      .timeout('timeout', 1000, 'callMs');
    const entry = mapping.entry;
    if (typeof entry.type === 'string' && inProcessTypes.has(entry.type)) {
      mapping.skip(
        `it is a Goose ${entry.type} extension, which runs inside Goose rather than as an MCP server.`,
      );
    }
    if (Array.isArray(entry.env_keys) && entry.env_keys.every((key) => typeof key === 'string')) {
      const env = isRecord(entry.env) ? { ...entry.env } : {};
      for (const key of entry.env_keys as string[]) env[key] ??= `\${${key}}`;
      if (Object.keys(env).length > 0) entry.env = env;
      delete entry.env_keys;
    }
    if (isRecord(entry.env) && Object.keys(entry.env).length === 0) delete entry.env;
    if (isRecord(entry.headers) && Object.keys(entry.headers).length === 0) delete entry.headers;
    return mapping.done(['name', 'display_name', 'bundled', 'available_tools']);
  },
  fromServerConfig(config: ServerConfig, { name }) {
    const out = createEntryExport(gooseHost, name);
    const kept = keptKeys(config, gooseHost);
    const entry: Record<string, unknown> = { name: kept.name ?? name };
    delete kept.name;
    const remote = config.url !== undefined;
    if (config.type === 'ws') out.refuse('it is a WebSocket server, which Goose does not run.');
    entry.type = gooseTypes[config.type ?? (remote ? 'http' : 'stdio')] ?? 'stdio';
    if (config.command !== undefined) entry.cmd = out.text(config.command, 'command');
    if (config.args !== undefined)
      entry.args = config.args.map((arg, index) => out.text(arg, `args[${index}]`));
    if (config.url !== undefined) entry.uri = out.text(config.url, 'url');
    // Goose writes `headers: {}` for every remote extension.
    if (remote) entry.headers = out.map(config.headers ?? {}, 'headers');
    const envs: Record<string, string> = {};
    const envKeys: string[] = [];
    for (const [key, value] of Object.entries(config.env ?? {})) {
      const parts = splitReferences(value);
      const [part] = parts;
      if (parts.length === 1 && part && 'variable' in part) {
        envKeys.push(key);
        if (part.variable !== key) {
          out.warn(
            `Goose reads env_keys by name: set ${key} (Switchboard's config reads it from ${part.variable}).`,
          );
        }
      } else if (!parts.every((piece) => 'text' in piece)) {
        out.refuse(`its env ${key} mixes text and references, which Goose cannot express.`);
      } else if (isSecretName(key)) {
        envKeys.push(key);
        out.warn(
          `the env ${key} is a secret and is written as an env_keys entry: set ${key} in Goose (goose configure) or its environment.`,
        );
      } else envs[key] = value;
    }
    entry.envs = envs;
    entry.env_keys = envKeys;
    if (config.timeouts?.callMs !== undefined) entry.timeout = Math.ceil(config.timeouts.callMs / 1000);
    entry.enabled = config.enabled !== false;
    if (config.description !== undefined) entry.description = config.description;
    out.unexported(config, [
      'type',
      'command',
      'args',
      'url',
      'headers',
      'env',
      'timeouts',
      'enabled',
      'description',
    ]);
    return out.result({ ...entry, ...kept });
  },
  envReference: () => undefined,
};
