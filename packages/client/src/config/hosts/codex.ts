/**
 * Codex: `$CODEX_HOME/config.toml` (`~/.codex`, Windows `%USERPROFILE%\.codex`), then a project's
 * `.codex/config.toml`, one `[mcp_servers.NAME]` table per server (TOML).
 *
 * Keys: `command`, `args`, `env`, `env_vars` (variables passed through by name → `env` entries
 * `NAME = "${NAME}"`), `cwd`; `url` (Streamable HTTP) → `type: 'http'`, `http_headers`,
 * `env_http_headers` (header → variable) and `bearer_token_env_var` → `headers` with `${VAR}`
 * references (never their values); `startup_timeout_sec` (or `_ms`) → `timeouts.connectMs`,
 * `tool_timeout_sec` → `timeouts.callMs`; `enabled`; `enabled_tools`/`disabled_tools` →
 * `includeTools`/`excludeTools`.
 *
 * Export rule: Codex has no references inside strings, only variables by name: an env entry
 * `${VAR}` becomes `env_vars = ["KEY"]` (Codex passes KEY through by name, so when VAR is not KEY
 * a warning says to set KEY), `Authorization: Bearer ${VAR}` becomes `bearer_token_env_var`, a
 * header `${VAR}` becomes `env_http_headers`; a literal secret becomes one of these with a
 * variable named after the server and key, and a warning naming it. A reference Codex cannot
 * express (in `command`, `args`, `url`, or inside other text) leaves the server out.
 */
import { join } from 'node:path';
import type { ServerConfig } from '../server-config.js';
import { createEntryExport, keptKeys } from './entry-export.js';
import { isRecord, mapEntry } from './entry-mapping.js';
import { isSecretName, splitReferences, variableNameFor } from './env-references.js';
import type { HostFormat, HostLocationContext } from './host-format.js';
import { fileLocation, location, userProfile } from './host-paths.js';

function userFile(context: HostLocationContext): string {
  return join(context.env.CODEX_HOME ?? join(userProfile(context), '.codex'), 'config.toml');
}

/** The variable a value refers to when it is exactly one reference without default. */
function onlyReference(value: string): string | undefined {
  const parts = splitReferences(value);
  const [part] = parts;
  return parts.length === 1 && part && 'variable' in part && part.fallback === undefined
    ? part.variable
    : undefined;
}

/** Codex's format. */
export const codexHost: HostFormat = {
  id: 'codex',
  title: 'Codex',
  syntax: 'toml',
  locations: (context) => [
    location(userFile(context), ['mcp_servers'], context),
    location(join(context.cwd, '.codex', 'config.toml'), ['mcp_servers'], context, 'project'),
  ],
  exportLocation: (context) => location(userFile(context), ['mcp_servers'], context),
  locationsInFile: (path) => [fileLocation(path, ['mcp_servers'])],
  toServerConfig(raw) {
    const mapping = mapEntry(raw)
      .rename('enabled_tools', 'includeTools')
      .rename('disabled_tools', 'excludeTools')
      .timeout('startup_timeout_sec', 1000, 'connectMs')
      .timeout('startup_timeout_ms', 1, 'connectMs')
      .timeout('tool_timeout_sec', 1000, 'callMs');
    const entry = mapping.entry;
    if (Array.isArray(entry.env_vars) && entry.env_vars.every((name) => typeof name === 'string')) {
      const env = isRecord(entry.env) ? { ...entry.env } : {};
      for (const name of entry.env_vars as string[]) env[name] ??= `\${${name}}`;
      entry.env = env;
      delete entry.env_vars;
    }
    if (typeof entry.url === 'string') {
      // Codex's remote servers speak Streamable HTTP; headers from the environment stay references.
      const headers: Record<string, unknown> = isRecord(entry.headers) ? { ...entry.headers } : {};
      if (isRecord(entry.http_headers)) Object.assign(headers, entry.http_headers);
      if (isRecord(entry.env_http_headers)) {
        for (const [header, variable] of Object.entries(entry.env_http_headers)) {
          if (typeof variable === 'string') headers[header] = `\${${variable}}`;
        }
      }
      if (typeof entry.bearer_token_env_var === 'string') {
        headers.Authorization = `Bearer \${${entry.bearer_token_env_var}}`;
      }
      delete entry.http_headers;
      delete entry.env_http_headers;
      delete entry.bearer_token_env_var;
      entry.type ??= 'http';
      if (Object.keys(headers).length > 0) entry.headers = headers;
    }
    return mapping.done();
  },
  fromServerConfig(config: ServerConfig, { name }) {
    const out = createEntryExport(codexHost, name);
    const entry: Record<string, unknown> = {};
    if (config.type === 'sse' || config.type === 'ws') {
      out.refuse(
        `it is a${config.type === 'sse' ? 'n SSE' : ' WebSocket'} server; Codex runs stdio and Streamable HTTP servers.`,
      );
    }
    if (config.command !== undefined) entry.command = out.text(config.command, 'command');
    if (config.args !== undefined)
      entry.args = config.args.map((arg, index) => out.text(arg, `args[${index}]`));
    if (config.env !== undefined) {
      const env: Record<string, string> = {};
      const passed: string[] = [];
      for (const [key, value] of Object.entries(config.env)) {
        const variable = onlyReference(value);
        if (variable !== undefined) {
          passed.push(key);
          if (variable !== key) {
            out.warn(
              `Codex passes variables through by name: set ${key} (Switchboard's config reads it from ${variable}).`,
            );
          }
        } else if (!splitReferences(value).every((part) => 'text' in part)) {
          out.refuse(`its env ${key} mixes text and references, which Codex cannot express.`);
        } else if (isSecretName(key)) {
          passed.push(key);
          out.warn(
            `the env ${key} is a secret and is passed through by name: set ${key} in Codex's environment.`,
          );
        } else env[key] = value;
      }
      if (Object.keys(env).length > 0) entry.env = env;
      if (passed.length > 0) entry.env_vars = passed;
    }
    if (config.cwd !== undefined) entry.cwd = out.text(config.cwd, 'cwd');
    if (config.url !== undefined) entry.url = out.text(config.url, 'url');
    if (config.headers !== undefined) {
      const fixed: Record<string, string> = {};
      const fromEnv: Record<string, string> = {};
      for (const [header, value] of Object.entries(config.headers)) {
        const bearer = /^Bearer\s+(.*)$/i.exec(value);
        const bearerVariable = bearer ? onlyReference(bearer[1] as string) : undefined;
        const variable = onlyReference(value);
        const literal = splitReferences(value).every((part) => 'text' in part);
        if (header.toLowerCase() === 'authorization' && bearerVariable !== undefined) {
          entry.bearer_token_env_var = bearerVariable;
        } else if (header.toLowerCase() === 'authorization' && bearer && literal) {
          const derived = variableNameFor(name, 'token');
          entry.bearer_token_env_var = derived;
          out.warn(
            `the bearer token is a secret and is written as bearer_token_env_var: set ${derived} to it.`,
          );
        } else if (variable !== undefined) {
          fromEnv[header] = variable;
        } else if (!literal) {
          out.refuse(`its header ${header} mixes text and references, which Codex cannot express.`);
        } else if (isSecretName(header)) {
          const derived = variableNameFor(name, header);
          fromEnv[header] = derived;
          out.warn(
            `the header ${header} is a secret and is written as env_http_headers: set ${derived} to it.`,
          );
        } else fixed[header] = value;
      }
      if (Object.keys(fixed).length > 0) entry.http_headers = fixed;
      if (Object.keys(fromEnv).length > 0) entry.env_http_headers = fromEnv;
    }
    if (config.timeouts?.connectMs !== undefined)
      entry.startup_timeout_sec = config.timeouts.connectMs / 1000;
    if (config.timeouts?.callMs !== undefined) entry.tool_timeout_sec = config.timeouts.callMs / 1000;
    if (config.timeouts?.maxTotalMs !== undefined)
      out.warn('timeouts.maxTotalMs is not written: Codex has no total deadline.');
    if (config.enabled === false) entry.enabled = false;
    if (config.includeTools !== undefined) entry.enabled_tools = [...config.includeTools];
    if (config.excludeTools !== undefined) entry.disabled_tools = [...config.excludeTools];
    out.unexported(config, [
      'type',
      'command',
      'args',
      'env',
      'cwd',
      'url',
      'headers',
      'timeouts',
      'enabled',
      'includeTools',
      'excludeTools',
    ]);
    return out.result({ ...entry, ...keptKeys(config, codexHost) });
  },
  envReference: () => undefined,
};
