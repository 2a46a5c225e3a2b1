/**
 * The keys hosts add to the common `mcpServers` entry shape, mapped onto Switchboard's before an
 * imported entry is validated, so that what a user set in their host (a tool allow-list, a
 * timeout, auto-approved tools) keeps meaning the same here instead of being warned away:
 *
 * | host | key | becomes |
 * |---|---|---|
 * | Claude Code | `timeout` (ms) | `timeouts.callMs` |
 * | Gemini CLI | `httpUrl` / `url` | `url` with `type: 'http'` / `'sse'` (Gemini's `url` is legacy SSE) |
 * | Gemini CLI | `timeout` (ms), `trust: true` | `timeouts.callMs`, `approval: 'never'` (Gemini skips confirmations) |
 * | Gemini CLI | `includeTools` / `excludeTools` | kept (the same keys) |
 * | Cline | `autoApprove` / `alwaysAllow` | `approval.allow` (the policy still asks for the rest) |
 * | Cline | `timeout` (s), `networkTimeout` (ms) | `timeouts.callMs` |
 * | Codex | `enabled_tools` / `disabled_tools` | `includeTools` / `excludeTools` |
 * | Codex | `startup_timeout_sec` (or `_ms`), `tool_timeout_sec` | `timeouts.connectMs`, `timeouts.callMs` |
 * | Codex | `url` (Streamable HTTP), `http_headers`, `env_http_headers`, `bearer_token_env_var` | `type: 'http'`, `headers` (env references kept as `${VAR}`, never their values) |
 *
 * Pure: takes the raw entries, returns new ones; a value of the wrong type is passed on unmapped,
 * so the validator reports it with its path.
 */

import type { ImportFormat } from './import-config.js';

type RawEntry = Record<string, unknown>;

function isRecord(value: unknown): value is RawEntry {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Moves a numeric host timeout key into `timeouts[target]` (scaled), dropping the host key. */
function mapTimeout(
  entry: RawEntry,
  key: string,
  scale: number,
  target: 'callMs' | 'connectMs' = 'callMs',
): RawEntry {
  const value = entry[key];
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return entry;
  const { [key]: _host, ...rest } = entry;
  const timeouts = isRecord(rest.timeouts) ? rest.timeouts : {};
  return { ...rest, timeouts: { [target]: value * scale, ...timeouts } };
}

/** Host keys renamed to ours, by mapped entry: our key → the host's (so errors name what the file says). */
const renamedKeys = new WeakMap<RawEntry, Record<string, string>>();

/** Renames a host key to ours, when ours is not set already. */
function rename(entry: RawEntry, from: string, to: string): RawEntry {
  if (entry[from] === undefined || entry[to] !== undefined) return entry;
  const { [from]: value, ...rest } = entry;
  const mapped = { ...rest, [to]: value };
  renamedKeys.set(mapped, { ...renamedKeys.get(entry), [to]: from });
  return mapped;
}

function mapClaudeCode(entry: RawEntry): RawEntry {
  return mapTimeout(entry, 'timeout', 1);
}

function mapGeminiCli(entry: RawEntry): RawEntry {
  let mapped = mapTimeout(entry, 'timeout', 1);
  if (typeof mapped.httpUrl === 'string') {
    const { httpUrl, ...rest } = mapped;
    mapped = { ...rest, url: httpUrl, type: 'http' };
  } else if (typeof mapped.url === 'string' && mapped.type === undefined) {
    mapped = { ...mapped, type: 'sse' };
  }
  if (typeof mapped.trust === 'boolean') {
    const { trust, ...rest } = mapped;
    mapped = trust && rest.approval === undefined ? { ...rest, approval: 'never' } : rest;
  }
  return mapped;
}

function mapCline(entry: RawEntry): RawEntry {
  let mapped = mapTimeout(mapTimeout(entry, 'networkTimeout', 1), 'timeout', 1000);
  const allow = [mapped.autoApprove, mapped.alwaysAllow].filter(Array.isArray).flat();
  if (allow.length > 0 && allow.every((name) => typeof name === 'string' && name !== '')) {
    const { autoApprove: _auto, alwaysAllow: _always, ...rest } = mapped;
    const approval = isRecord(rest.approval) ? rest.approval : {};
    const existing = Array.isArray(approval.allow) ? approval.allow : [];
    mapped = { ...rest, approval: { ...approval, allow: [...existing, ...allow] } };
  } else if (Array.isArray(mapped.autoApprove) && mapped.autoApprove.length === 0) {
    const { autoApprove: _auto, ...rest } = mapped;
    mapped = rest;
  }
  return mapped;
}

function mapCodex(entry: RawEntry): RawEntry {
  let mapped = rename(rename(entry, 'enabled_tools', 'includeTools'), 'disabled_tools', 'excludeTools');
  mapped = mapTimeout(mapped, 'startup_timeout_sec', 1000, 'connectMs');
  mapped = mapTimeout(mapped, 'startup_timeout_ms', 1, 'connectMs');
  mapped = mapTimeout(mapped, 'tool_timeout_sec', 1000, 'callMs');
  if (typeof mapped.url !== 'string') return mapped;
  // Codex's remote servers speak Streamable HTTP; headers from the environment stay references.
  const { http_headers: fixed, env_http_headers: fromEnv, bearer_token_env_var: bearer, ...rest } = mapped;
  const headers: Record<string, unknown> = isRecord(rest.headers) ? { ...rest.headers } : {};
  if (isRecord(fixed)) Object.assign(headers, fixed);
  if (isRecord(fromEnv)) {
    for (const [name, variable] of Object.entries(fromEnv)) {
      if (typeof variable === 'string') headers[name] = `\${${variable}}`;
    }
  }
  if (typeof bearer === 'string') headers.Authorization = `Bearer \${${bearer}}`;
  return {
    ...rest,
    ...(rest.type === undefined ? { type: 'http' } : {}),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
  };
}

const mappers: Partial<Record<ImportFormat, (entry: RawEntry) => RawEntry>> = {
  codex: mapCodex,
  'claude-code': mapClaudeCode,
  'gemini-cli': mapGeminiCli,
  cline: mapCline,
};

/** What {@link mapHostServerKeys} gives: the mapped entries, and which keys were renamed in each. */
export interface MappedHostServers {
  servers: unknown;
  /** Per server: our key → the host's key it came from. */
  renamed: Record<string, Record<string, string>>;
}

/** The entries of a host's servers map with the host's own keys mapped onto Switchboard's. */
export function mapHostServerKeys(format: ImportFormat, servers: unknown): MappedHostServers {
  const mapper = mappers[format];
  const renamed: Record<string, Record<string, string>> = {};
  if (mapper === undefined || !isRecord(servers)) return { servers, renamed };
  const mapped = Object.fromEntries(
    Object.entries(servers).map(([name, entry]) => {
      if (!isRecord(entry)) return [name, entry];
      const result = mapper(entry);
      const keys = renamedKeys.get(result);
      if (keys !== undefined) renamed[name] = keys;
      return [name, result];
    }),
  );
  return { servers: mapped, renamed };
}
