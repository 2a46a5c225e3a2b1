/**
 * Windsurf (Cascade): `~/.codeium/windsurf/mcp_config.json` (Windows
 * `%USERPROFILE%\.codeium\windsurf\mcp_config.json`), `mcpServers` by name. A remote server's
 * endpoint is `serverUrl` (→ `url`; `url` is read too); `disabled`; `disabledTools` →
 * `excludeTools`. `${env:VAR}` is Windsurf's reference (in command, args, env, serverUrl, url,
 * headers).
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
import type { HostFormat, HostLocationContext } from './host-format.js';
import { fileLocation, location, userProfile } from './host-paths.js';

function configFile(context: HostLocationContext): string {
  return join(userProfile(context), '.codeium', 'windsurf', 'mcp_config.json');
}

/** Windsurf's format. */
export const windsurfHost: HostFormat = {
  id: 'windsurf',
  title: 'Windsurf',
  syntax: 'jsonc',
  locations: (context) => [location(configFile(context), ['mcpServers'], context)],
  exportLocation: (context) => location(configFile(context), ['mcpServers'], context),
  locationsInFile: (path) => [fileLocation(path, ['mcpServers'])],
  toServerConfig: (raw) =>
    mapEntry(raw)
      .rename('serverUrl', 'url')
      .rename('disabledTools', 'excludeTools')
      .references(fromEnvColonReferences)
      .done(),
  fromServerConfig(config: ServerConfig, { name }) {
    const out = createEntryExport(windsurfHost, name);
    const { entry, handled } = commonEntry(config, out, {
      urlKey: 'serverUrl',
      disabled: true,
      // Windsurf tells the transport of a serverUrl itself.
      type: () => undefined,
    });
    if (config.excludeTools !== undefined) entry.disabledTools = [...config.excludeTools];
    out.unexported(config, [...handled, 'excludeTools']);
    return out.result({ ...entry, ...keptKeys(config, windsurfHost) });
  },
  envReference: (variable) => `\${env:${variable}}`,
};
