// biome-ignore-all lint/suspicious/noTemplateCurlyInString: host reference syntax (${env:VAR}, ${workspaceFolder}) is written on purpose
/**
 * Cursor: `~/.cursor/mcp.json` (Windows `%USERPROFILE%\.cursor\mcp.json`) and a project's
 * `.cursor/mcp.json`, `mcpServers` by name (`command`, `args`, `env`, `envFile`, or `url`,
 * `headers`). `${env:VAR}` is Cursor's reference; `${userHome}` and `${workspaceFolder}` are
 * resolved on import.
 *
 * Export rule: `${VAR}` is written as `${env:VAR}`; a literal secret becomes `${env:SERVER_KEY}`
 * with a warning naming the variable to set.
 */
import { join } from 'node:path';
import type { ServerConfig } from '../server-config.js';
import { commonEntry } from './common-entry.js';
import { createEntryExport, keptKeys } from './entry-export.js';
import { mapEntry } from './entry-mapping.js';
import { fromEnvColonReferences } from './env-references.js';
import type { HostFormat } from './host-format.js';
import { fileLocation, location, userProfile } from './host-paths.js';

/** Cursor's format. */
export const cursorHost: HostFormat = {
  id: 'cursor',
  title: 'Cursor',
  syntax: 'jsonc',
  workspacePlaceholder: '${workspaceFolder}',
  locations: (context) => [
    location(join(userProfile(context), '.cursor', 'mcp.json'), ['mcpServers'], context),
    location(join(context.cwd, '.cursor', 'mcp.json'), ['mcpServers'], context, 'project'),
  ],
  exportLocation: (context) =>
    location(join(userProfile(context), '.cursor', 'mcp.json'), ['mcpServers'], context),
  locationsInFile: (path) => [fileLocation(path, ['mcpServers'])],
  toServerConfig: (raw) => mapEntry(raw).references(fromEnvColonReferences).done(),
  fromServerConfig(config: ServerConfig, { name }) {
    const out = createEntryExport(cursorHost, name);
    const { entry, handled } = commonEntry(config, out, { envFile: true });
    out.unexported(config, handled);
    return out.result({ ...entry, ...keptKeys(config, cursorHost) });
  },
  envReference: (variable) => `\${env:${variable}}`,
};
