/**
 * Cline: `cline_mcp_settings.json` in VS Code's global storage of the extension
 * (`…/Code/User/globalStorage/saoudrizwan.claude-dev/settings/`; macOS under
 * `~/Library/Application Support`, Windows under `%APPDATA%`, Linux under `$XDG_CONFIG_HOME`),
 * `mcpServers` by name.
 *
 * Keys: `type` (`stdio`, `sse`, `streamableHttp`); `disabled`; `autoApprove` (and the older
 * `alwaysAllow`) → `approval.allow`; `timeout` (seconds) and `networkTimeout` (ms) →
 * `timeouts.callMs`.
 *
 * Export rule: Cline has no environment references, so a server whose values refer to `${VAR}`
 * is left out (install the gateway instead) and a literal secret is written as it is, with a
 * warning.
 */
import { join } from 'node:path';
import type { ServerConfig } from '../server-config.js';
import { commonEntry } from './common-entry.js';
import { createEntryExport, keptKeys } from './entry-export.js';
import { isRecord, mapEntry } from './entry-mapping.js';
import type { HostFormat, HostLocationContext } from './host-format.js';
import { fileLocation, location, vscodeUserDirectory } from './host-paths.js';

/** Cline's `cline_mcp_settings.json`, in VS Code's global storage of the extension. */
export function clineSettingsPath(context: HostLocationContext): string {
  return join(
    vscodeUserDirectory(context),
    'globalStorage',
    'saoudrizwan.claude-dev',
    'settings',
    'cline_mcp_settings.json',
  );
}

const clineTypes: Record<string, string> = { stdio: 'stdio', sse: 'sse', http: 'streamableHttp' };

/** Cline's format. */
export const clineHost: HostFormat = {
  id: 'cline',
  title: 'Cline',
  syntax: 'jsonc',
  locations: (context) => [location(clineSettingsPath(context), ['mcpServers'], context)],
  exportLocation: (context) => location(clineSettingsPath(context), ['mcpServers'], context),
  locationsInFile: (path) => [fileLocation(path, ['mcpServers'])],
  toServerConfig(raw) {
    const mapping = mapEntry(raw).timeout('networkTimeout', 1, 'callMs').timeout('timeout', 1000, 'callMs');
    const entry = mapping.entry;
    const allow = [entry.autoApprove, entry.alwaysAllow].filter(Array.isArray).flat();
    if (allow.length > 0 && allow.every((name) => typeof name === 'string' && name !== '')) {
      delete entry.autoApprove;
      delete entry.alwaysAllow;
      const approval = isRecord(entry.approval) ? entry.approval : {};
      const existing = Array.isArray(approval.allow) ? approval.allow : [];
      entry.approval = { ...approval, allow: [...existing, ...allow] };
    } else if (Array.isArray(entry.autoApprove) && entry.autoApprove.length === 0) {
      delete entry.autoApprove;
    }
    return mapping.done();
  },
  fromServerConfig(config: ServerConfig, { name }) {
    const out = createEntryExport(clineHost, name);
    const { entry, handled } = commonEntry(config, out, {
      cwd: true,
      disabled: true,
      type: (server) => (server.type === undefined ? undefined : clineTypes[server.type]),
    });
    if (config.type === 'ws') out.refuse('it is a WebSocket server, which Cline does not run.');
    if (config.timeouts?.callMs !== undefined) entry.timeout = Math.ceil(config.timeouts.callMs / 1000);
    const approval = config.approval;
    if (typeof approval === 'object' && approval.allow !== undefined) entry.autoApprove = [...approval.allow];
    if (typeof approval === 'string' || approval?.mode !== undefined || approval?.deny !== undefined) {
      out.warn('only approval.allow is written (as autoApprove): Cline asks for every other tool.');
    }
    out.unexported(config, [...handled, 'timeouts', 'approval']);
    return out.result({ ...entry, ...keptKeys(config, clineHost) });
  },
  envReference: () => undefined,
};
