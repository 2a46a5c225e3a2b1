/**
 * Claude Code: `~/.claude.json` (`mcpServers`: user scope; `projects[folder].mcpServers`: local
 * scope) and a project's `.mcp.json` (project scope). Precedence: local > project > user.
 *
 * Keys: `type` (stdio/http/sse), `timeout` (ms) → `timeouts.callMs`, `headersHelper` (a command
 * printing headers as JSON, run at connect) → `headersHelper`, `oauth` → `auth` (`clientId`,
 * `callbackPort` → `redirectPort`, `scopes` (space-separated) → `scopes`; keys with no equivalent,
 * such as `authServerMetadataUrl`, are kept and reported).
 *
 * Export rule: `${VAR}` and `${VAR:-default}` are Claude Code's own syntax and are written as they
 * are; a literal secret becomes `${SERVER_KEY}` with a warning naming the variable to set.
 */
import { dirname, join } from 'node:path';
import type { ServerAuthConfig } from '../server-auth-config.js';
import type { ServerConfig } from '../server-config.js';
import { commonEntry } from './common-entry.js';
import { createEntryExport, keptKeys } from './entry-export.js';
import { isRecord, mapEntry } from './entry-mapping.js';
import { fromEnvColonReferences } from './env-references.js';
import type { HostFormat, HostLocation, HostLocationContext } from './host-format.js';
import { fileLocation, location, userProfile } from './host-paths.js';

/** The local scope: servers of the project folder Claude Code was started in. */
function localScope(context: HostLocationContext): string[] {
  return ['projects', context.cwd, 'mcpServers'];
}

function userFile(context: HostLocationContext): string {
  return join(userProfile(context), '.claude.json');
}

/** The nearest folder at or above `cwd` with an entry in `projects`; home counts only as cwd itself. */
function nearestProject(projects: unknown, cwd: string, home: string): string | undefined {
  if (!isRecord(projects)) return undefined;
  let directory = cwd;
  for (;;) {
    if (Object.hasOwn(projects, directory)) return directory;
    const parent = dirname(directory);
    if (parent === directory || parent === home) return undefined;
    directory = parent;
  }
}

function mapOauth(entry: Record<string, unknown>): Record<string, unknown> | undefined {
  const oauth = entry.oauth;
  if (!isRecord(oauth) || entry.auth !== undefined) return undefined;
  const auth: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(oauth)) {
    if (key === 'clientId') auth.clientId = value;
    else if (key === 'callbackPort') auth.redirectPort = value;
    else if (key === 'scopes' && typeof value === 'string') auth.scopes = value.split(/\s+/).filter(Boolean);
    else if (key === 'scopes') auth.scopes = value;
    else rest[key] = value;
  }
  entry.auth = auth;
  delete entry.oauth;
  return Object.keys(rest).length > 0 ? rest : undefined;
}

function exportOauth(auth: ServerAuthConfig | false | undefined, warn: (message: string) => void) {
  if (auth === undefined) return undefined;
  if (auth === false) {
    warn('"auth": false is not written: Claude Code has no way to turn OAuth off.');
    return undefined;
  }
  const oauth: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(auth)) {
    if (key === 'clientId') oauth.clientId = value;
    else if (key === 'redirectPort') oauth.callbackPort = value;
    else if (key === 'scopes' && Array.isArray(value)) oauth.scopes = value.join(' ');
    else
      warn(
        `auth.${key} is not written: Claude Code's "oauth" has no equivalent (its secrets live in the keychain).`,
      );
  }
  return Object.keys(oauth).length > 0 ? oauth : undefined;
}

/** Claude Code's format. */
export const claudeCodeHost: HostFormat = {
  id: 'claude-code',
  title: 'Claude Code',
  syntax: 'jsonc',
  locations: (context) => [
    location(userFile(context), ['mcpServers'], context),
    location(join(context.cwd, '.mcp.json'), ['mcpServers'], context, 'project'),
    location(userFile(context), localScope(context), context, 'project'),
  ],
  exportLocation: (context) => location(userFile(context), ['mcpServers'], context),
  locationsInFile: (path, context) => [
    fileLocation(path, ['mcpServers']),
    { ...fileLocation(path, localScope(context)), workspaceFolder: context.cwd },
  ],
  serversPathIn(value, where: HostLocation, context) {
    if (where.serversPath[0] !== 'projects') return where.serversPath;
    // Claude Code keys projects by the folder it was started in: use the nearest one above cwd.
    const project = nearestProject(isRecord(value) ? value.projects : undefined, context.cwd, context.home);
    return project === undefined ? undefined : ['projects', project, 'mcpServers'];
  },
  toServerConfig(raw) {
    const mapping = mapEntry(raw).timeout('timeout', 1, 'callMs').references(fromEnvColonReferences);
    const oauthRest = mapOauth(mapping.entry);
    if (oauthRest !== undefined) {
      mapping.entry.oauth = oauthRest;
      mapping.keep('oauth');
    }
    const mapped = mapping.done();
    if (mapped.entry.auth !== undefined && raw.oauth !== undefined && raw.auth === undefined) {
      mapped.renamed.auth = 'oauth';
    }
    return mapped;
  },
  fromServerConfig(config: ServerConfig, { name }) {
    const out = createEntryExport(claudeCodeHost, name, { keepsDefaults: true });
    const { entry, handled } = commonEntry(config, out, {
      type: (server) => server.type ?? (server.url !== undefined ? 'http' : undefined),
    });
    if (config.timeouts?.callMs !== undefined) entry.timeout = config.timeouts.callMs;
    if (config.timeouts?.connectMs !== undefined || config.timeouts?.maxTotalMs !== undefined) {
      out.warn(
        'only timeouts.callMs is written (as "timeout"): Claude Code has no connect or total timeout per server.',
      );
    }
    if (config.headersHelper !== undefined) entry.headersHelper = config.headersHelper;
    const kept = keptKeys(config, claudeCodeHost);
    const oauth = exportOauth(config.auth, out.warn);
    if (oauth !== undefined || isRecord(kept.oauth)) {
      kept.oauth = { ...(isRecord(kept.oauth) ? kept.oauth : {}), ...oauth };
    }
    out.unexported(config, [...handled, 'timeouts', 'headersHelper', 'auth']);
    return out.result({ ...entry, ...kept });
  },
  envReference: (variable, fallback) =>
    fallback === undefined ? `\${${variable}}` : `\${${variable}:-${fallback}}`,
};
