/**
 * Zed: `context_servers` by name in `settings.json` (Linux and macOS `~/.config/zed/` or
 * `$XDG_CONFIG_HOME/zed/`, Windows `%APPDATA%\Zed\`) and a project's `.zed/settings.json`.
 * Entries are flat (`command`, `args`, `env`), the older object form
 * (`"command": { "path", "args", "env" }`), or remote (`url`, `headers`); `enabled`; `source` is
 * Zed's own bookkeeping (kept quietly); `settings` (an extension's settings) is kept and reported.
 *
 * Export rule: Zed has no environment references, so a server whose values refer to `${VAR}` is
 * left out (install the gateway instead) and a literal secret is written as it is, with a
 * warning. An entry that has the object form in the file keeps it.
 */
import { join } from 'node:path';
import type { ServerConfig } from '../server-config.js';
import { commonEntry } from './common-entry.js';
import { createEntryExport, keptKeys } from './entry-export.js';
import { isRecord, mapEntry } from './entry-mapping.js';
import type { HostFormat, HostLocationContext } from './host-format.js';
import { appData, fileLocation, location, xdgConfig } from './host-paths.js';

function settingsFile(context: HostLocationContext): string {
  if (context.platform === 'win32') return join(appData(context), 'Zed', 'settings.json');
  if (context.platform === 'darwin') return join(context.home, '.config', 'zed', 'settings.json');
  return join(xdgConfig(context), 'zed', 'settings.json');
}

/** Zed's format. */
export const zedHost: HostFormat = {
  id: 'zed',
  title: 'Zed',
  syntax: 'jsonc',
  locations: (context) => [
    location(settingsFile(context), ['context_servers'], context),
    location(join(context.cwd, '.zed', 'settings.json'), ['context_servers'], context, 'project'),
  ],
  exportLocation: (context) => location(settingsFile(context), ['context_servers'], context),
  locationsInFile: (path) => [fileLocation(path, ['context_servers'])],
  toServerConfig(raw) {
    const mapping = mapEntry(raw);
    const command = mapping.entry.command;
    if (isRecord(command)) {
      // The object form: { "command": { "path", "args", "env" } }.
      mapping.entry.command = command.path;
      if (command.args !== undefined && mapping.entry.args === undefined) mapping.entry.args = command.args;
      if (command.env !== undefined && mapping.entry.env === undefined) mapping.entry.env = command.env;
    }
    return mapping.done(['source']);
  },
  fromServerConfig(config: ServerConfig, { name, existing }) {
    const out = createEntryExport(zedHost, name);
    const { entry, handled } = commonEntry(config, out, { type: () => undefined, disabled: true });
    if (entry.disabled === true) {
      delete entry.disabled;
      entry.enabled = false;
    }
    if (isRecord(existing) && isRecord(existing.command) && entry.command !== undefined) {
      const { command, args, env, ...rest } = entry;
      out.unexported(config, handled);
      return out.result({
        command: { path: command, ...(args ? { args } : {}), ...(env ? { env } : {}) },
        ...rest,
        ...keptKeys(config, zedHost),
      });
    }
    out.unexported(config, handled);
    return out.result({ ...entry, ...keptKeys(config, zedHost) });
  },
  envReference: () => undefined,
};
