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
 *
 * Pure: takes the raw entries, returns new ones; a value of the wrong type is passed on unmapped,
 * so the validator reports it with its path.
 */

import type { ImportFormat } from './import-config.js';

type RawEntry = Record<string, unknown>;

function isRecord(value: unknown): value is RawEntry {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function withCallTimeout(entry: RawEntry, milliseconds: number): RawEntry {
  const timeouts = isRecord(entry.timeouts) ? entry.timeouts : {};
  return { ...entry, timeouts: { callMs: milliseconds, ...timeouts } };
}

/** Moves a numeric host timeout key into `timeouts.callMs` (scaled), dropping the host key. */
function mapTimeout(entry: RawEntry, key: string, scale: number): RawEntry {
  const value = entry[key];
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return entry;
  const { [key]: _host, ...rest } = entry;
  return withCallTimeout(rest, value * scale);
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

const mappers: Partial<Record<ImportFormat, (entry: RawEntry) => RawEntry>> = {
  'claude-code': mapClaudeCode,
  'gemini-cli': mapGeminiCli,
  cline: mapCline,
};

/** The entries of a host's servers map with the host's own keys mapped onto Switchboard's. */
export function mapHostServerKeys(format: ImportFormat, servers: unknown): unknown {
  const mapper = mappers[format];
  if (mapper === undefined || !isRecord(servers)) return servers;
  return Object.fromEntries(
    Object.entries(servers).map(([name, entry]) => [name, isRecord(entry) ? mapper(entry) : entry]),
  );
}
