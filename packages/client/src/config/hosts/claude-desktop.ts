/**
 * Claude Desktop: `claude_desktop_config.json`, `mcpServers` by name (`command`, `args`, `env`).
 *
 * Files: macOS `~/Library/Application Support/Claude/`, Windows `%APPDATA%\Claude\`, Linux
 * `$XDG_CONFIG_HOME/Claude/` (`~/.config`).
 *
 * Export rule: the file holds local (stdio) servers only (remote ones are connectors added in the
 * app), and it has no environment references, so a server whose values refer to `${VAR}` is left
 * out (install the gateway instead) and a literal secret is written as it is, with a warning.
 */
import { join } from 'node:path';
import type { ServerConfig } from '../server-config.js';
import { commonEntry } from './common-entry.js';
import { createEntryExport, keptKeys } from './entry-export.js';
import { mapEntry } from './entry-mapping.js';
import type { HostFormat, HostLocationContext } from './host-format.js';
import { appData, fileLocation, location, xdgConfig } from './host-paths.js';

/** Claude Desktop's config file on a platform. */
export function claudeDesktopConfigPath(context: HostLocationContext): string {
  const file = 'claude_desktop_config.json';
  if (context.platform === 'darwin')
    return join(context.home, 'Library', 'Application Support', 'Claude', file);
  if (context.platform === 'win32') return join(appData(context), 'Claude', file);
  return join(xdgConfig(context), 'Claude', file);
}

/** Claude Desktop's format. */
export const claudeDesktopHost: HostFormat = {
  id: 'claude-desktop',
  title: 'Claude Desktop',
  syntax: 'jsonc',
  locations: (context) => [location(claudeDesktopConfigPath(context), ['mcpServers'], context)],
  exportLocation: (context) => location(claudeDesktopConfigPath(context), ['mcpServers'], context),
  locationsInFile: (path) => [fileLocation(path, ['mcpServers'])],
  toServerConfig: (raw) => mapEntry(raw).done(),
  fromServerConfig(config: ServerConfig, { name }) {
    const out = createEntryExport(claudeDesktopHost, name);
    const { entry, handled } = commonEntry(config, out, { remote: false, type: () => undefined });
    out.unexported(config, handled);
    return out.result({ ...entry, ...keptKeys(config, claudeDesktopHost) });
  },
  envReference: () => undefined,
};
