/**
 * Gemini CLI: `~/.gemini/settings.json` (Windows `%USERPROFILE%\.gemini\settings.json`), then the
 * project's `.gemini/settings.json` (project wins), `mcpServers` by name.
 *
 * Keys: `httpUrl` → `url` with `type: 'http'`; `url` → `type: 'sse'` (Gemini's `url` is legacy
 * SSE); `timeout` (ms) → `timeouts.callMs`; `trust: true` → `approval: 'never'` (Gemini skips
 * confirmations); `includeTools`/`excludeTools` are the same keys; `cwd`. `$VAR` and `${VAR}` are
 * Gemini's references (bare `$VAR` becomes `${VAR}`).
 *
 * Export rule: `${VAR}` is written as it is (Gemini reads it); a literal secret becomes
 * `${SERVER_KEY}` with a warning naming the variable to set.
 */
import { join } from 'node:path';
import type { ServerConfig } from '../server-config.js';
import { commonEntry } from './common-entry.js';
import { createEntryExport, keptKeys } from './entry-export.js';
import { mapEntry } from './entry-mapping.js';
import { fromBareReferences } from './env-references.js';
import type { HostFormat } from './host-format.js';
import { fileLocation, location, userProfile } from './host-paths.js';

/** Gemini CLI's format. */
export const geminiCliHost: HostFormat = {
  id: 'gemini-cli',
  title: 'Gemini CLI',
  syntax: 'jsonc',
  locations: (context) => [
    location(join(userProfile(context), '.gemini', 'settings.json'), ['mcpServers'], context),
    location(join(context.cwd, '.gemini', 'settings.json'), ['mcpServers'], context, 'project'),
  ],
  exportLocation: (context) =>
    location(join(userProfile(context), '.gemini', 'settings.json'), ['mcpServers'], context),
  locationsInFile: (path) => [fileLocation(path, ['mcpServers'])],
  toServerConfig(raw) {
    const mapping = mapEntry(raw).timeout('timeout', 1, 'callMs').references(fromBareReferences);
    const entry = mapping.entry;
    if (typeof entry.httpUrl === 'string') {
      mapping.rename('httpUrl', 'url');
      entry.type = 'http';
    } else if (typeof entry.url === 'string' && entry.type === undefined) {
      entry.type = 'sse';
    }
    if (typeof entry.trust === 'boolean') {
      if (entry.trust && entry.approval === undefined) entry.approval = 'never';
      delete entry.trust;
    }
    return mapping.done();
  },
  fromServerConfig(config: ServerConfig, { name }) {
    const out = createEntryExport(geminiCliHost, name);
    const sse = config.type === 'sse';
    const { entry, handled } = commonEntry(config, out, {
      cwd: true,
      type: () => undefined,
      urlKey: sse ? 'url' : 'httpUrl',
    });
    if (config.type === 'ws') out.refuse('it is a WebSocket server, which Gemini CLI does not run.');
    if (config.timeouts?.callMs !== undefined) entry.timeout = config.timeouts.callMs;
    if (config.approval === 'never') entry.trust = true;
    else if (config.approval !== undefined) {
      out.warn(
        '"approval" is not written except as trust: true for "never" (Gemini CLI asks for every other call).',
      );
    }
    if (config.includeTools !== undefined) entry.includeTools = [...config.includeTools];
    if (config.excludeTools !== undefined) entry.excludeTools = [...config.excludeTools];
    out.unexported(config, [...handled, 'timeouts', 'approval', 'includeTools', 'excludeTools']);
    return out.result({ ...entry, ...keptKeys(config, geminiCliHost) });
  },
  envReference: (variable) => `\${${variable}}`,
};
