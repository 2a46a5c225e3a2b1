// biome-ignore-all lint/suspicious/noTemplateCurlyInString: host reference syntax (${env:VAR}, ${workspaceFolder}) is written on purpose
/**
 * VS Code: the workspace's `.vscode/mcp.json` and the user profile's `mcp.json` (`servers` by
 * name, `inputs` beside it), and the older `"mcp": { "servers", "inputs" }` section of the user
 * `settings.json`. User folder: macOS `~/Library/Application Support/Code/User`, Windows
 * `%APPDATA%\Code\User`, Linux `$XDG_CONFIG_HOME/Code/User`. Merge order: settings.json, user
 * mcp.json, workspace mcp.json.
 *
 * Keys: `type` (stdio/http/sse), `command`, `args`, `env`, `envFile`, `cwd`, `url`, `headers`;
 * `dev` (`watch`, `debug`: VS Code's server development mode) is kept and reported. `${env:VAR}`
 * is VS Code's reference; `${input:id}` prompts are resolved on import (a map or a callback);
 * `${workspaceFolder}`, `${userHome}` are resolved on import.
 *
 * Export rule: `${VAR}` is written as `${env:VAR}`; a literal secret becomes a password
 * `promptString` input (`${input:server-key}`) that VS Code asks for once and keeps in its secret
 * storage, so nothing secret is written to the file.
 */
import { basename, join } from 'node:path';
import type { ServerConfig } from '../server-config.js';
import { commonEntry } from './common-entry.js';
import { createEntryExport, keptKeys } from './entry-export.js';
import { isRecord, mapEntry } from './entry-mapping.js';
import { fromEnvColonReferences } from './env-references.js';
import type { HostFormat } from './host-format.js';
import { fileLocation, location, vscodeUserDirectory } from './host-paths.js';

const settingsServers = ['mcp', 'servers'];

/** VS Code's format. */
export const vscodeHost: HostFormat = {
  id: 'vscode',
  title: 'VS Code',
  syntax: 'jsonc',
  workspacePlaceholder: '${workspaceFolder}',
  locations: (context) => [
    location(join(vscodeUserDirectory(context), 'settings.json'), settingsServers, context),
    location(join(vscodeUserDirectory(context), 'mcp.json'), ['servers'], context),
    location(join(context.cwd, '.vscode', 'mcp.json'), ['servers'], context, 'project'),
  ],
  exportLocation: (context) => location(join(vscodeUserDirectory(context), 'mcp.json'), ['servers'], context),
  locationsInFile: (path) => [
    fileLocation(path, basename(path) === 'settings.json' ? settingsServers : ['servers']),
  ],
  serversPathIn(value, where) {
    const has = (path: string[]) =>
      path.reduce<unknown>((node, key) => (isRecord(node) ? node[key] : undefined), value) !== undefined;
    if (has(where.serversPath)) return where.serversPath;
    // A settings.json given as a plain file, or an mcp.json written in the settings shape.
    const other = where.serversPath === settingsServers ? ['servers'] : settingsServers;
    return has(other) ? other : where.serversPath;
  },
  toServerConfig: (raw) => mapEntry(raw).references(fromEnvColonReferences).done(),
  fromServerConfig(config: ServerConfig, { name }) {
    const out = createEntryExport(vscodeHost, name, { secretsAsInputs: true });
    const { entry, handled } = commonEntry(config, out, {
      cwd: true,
      envFile: true,
      type: (server) => server.type ?? (server.url !== undefined ? 'http' : 'stdio'),
    });
    out.unexported(config, handled);
    return out.result({ ...entry, ...keptKeys(config, vscodeHost) });
  },
  envReference: (variable) => `\${env:${variable}}`,
};
