/**
 * Hand-written validation of config documents: it walks the plain value with a JSON path so every
 * issue names where it is, collects all issues of a file at once, coerces the harmless mistakes
 * users make (numbers in `args`, `streamable-http` spellings) and never quotes env or header values.
 */

import { type ApprovalModeName, checkTrustPolicy } from '@switchboard/core';
import type { TransportType } from '@switchboard/transports';
import { supportedProtocolVersions } from '../protocol-version.js';
import type { JsonPathSegment } from './jsonc-document.js';
import type { ApprovalConfig, ServerConfig } from './server-config.js';
import { validateServerAuth } from './validate-server-auth.js';

/** Collects issues (fatal) and warnings (reported, entry kept) while validating. */
export interface ValidationSink {
  issue(path: JsonPathSegment[], message: string): void;
  warn(path: JsonPathSegment[], message: string): void;
}

const transportAliases: Record<string, TransportType> = {
  stdio: 'stdio',
  http: 'http',
  'streamable-http': 'http',
  streamablehttp: 'http',
  streamable_http: 'http',
  streamable: 'http',
  sse: 'sse',
  ws: 'ws',
  websocket: 'ws',
};

const approvalModes: readonly ApprovalModeName[] = ['annotations', 'always', 'never'];

/** Every key of a server entry the validator reads (the aliases `transport` / `transportType` of `type` included). */
export const serverEntryKeys: ReadonlySet<string> = new Set([
  'type',
  'transport',
  'transportType',
  'command',
  'args',
  'env',
  'envFile',
  'cwd',
  'url',
  'headers',
  'headersHelper',
  'prefix',
  'timeouts',
  'approval',
  'includeTools',
  'excludeTools',
  'trust',
  'enabled',
  'disabled',
  'description',
  'auth',
  'protocolVersion',
  'hostKeys',
]);

/** A short, value-free description of a JSON value's type for messages. */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

/** Normalises a transport spelling (`streamable-http`, `websocket`…); undefined when unknown. */
export function normalizeTransportType(value: string): TransportType | undefined {
  return transportAliases[value.toLowerCase()];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function scalarToString(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

function stringMap(
  value: unknown,
  path: JsonPathSegment[],
  sink: ValidationSink,
  what: string,
): Record<string, string> | undefined {
  if (!isRecord(value)) {
    sink.issue(path, `expected an object of ${what}, got ${describeType(value)}. Write { "NAME": "value" }.`);
    return undefined;
  }
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) {
    const text = scalarToString(item);
    if (text === undefined) sink.issue([...path, key], `expected a string, got ${describeType(item)}.`);
    else out[key] = text;
  }
  return out;
}

function optionalString(
  entry: Record<string, unknown>,
  key: string,
  path: JsonPathSegment[],
  sink: ValidationSink,
): string | undefined {
  const value = entry[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') {
    sink.issue(
      [...path, key],
      `expected a non-empty string, got ${value === '' ? 'an empty string' : describeType(value)}.`,
    );
    return undefined;
  }
  return value;
}

function parseApproval(
  value: unknown,
  path: JsonPathSegment[],
  sink: ValidationSink,
): ApprovalConfig | undefined {
  const modeHint = `Use one of ${approvalModes.map((mode) => `'${mode}'`).join(', ')}.`;
  if (typeof value === 'string') {
    if (approvalModes.includes(value as ApprovalModeName)) return value as ApprovalModeName;
    sink.issue(path, `unknown approval mode '${value}'. ${modeHint}`);
    return undefined;
  }
  if (!isRecord(value)) {
    sink.issue(path, `expected a mode string or { mode, allow, deny }, got ${describeType(value)}.`);
    return undefined;
  }
  const out: Exclude<ApprovalConfig, string> = {};
  for (const key of Object.keys(value)) {
    if (key !== 'mode' && key !== 'allow' && key !== 'deny') {
      sink.warn([...path, key], `unknown approval key, ignored. Known keys: mode, allow, deny.`);
    }
  }
  if (value.mode !== undefined) {
    if (typeof value.mode === 'string' && approvalModes.includes(value.mode as ApprovalModeName)) {
      out.mode = value.mode as ApprovalModeName;
    } else {
      sink.issue([...path, 'mode'], `unknown approval mode. ${modeHint}`);
    }
  }
  for (const key of ['allow', 'deny'] as const) {
    const list = value[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      sink.issue([...path, key], `expected an array of tool-name globs, got ${describeType(list)}.`);
      continue;
    }
    const globs: string[] = [];
    list.forEach((item, index) => {
      if (typeof item === 'string' && item !== '') globs.push(item);
      else sink.issue([...path, key, index], `expected a non-empty glob string, got ${describeType(item)}.`);
    });
    out[key] = globs;
  }
  return out;
}

/**
 * Validates one `mcpServers` entry and returns it normalised, or undefined when it has issues
 * (reported to `sink`).
 */
export function validateServerEntry(
  raw: unknown,
  path: JsonPathSegment[],
  sink: ValidationSink,
): ServerConfig | undefined {
  if (!isRecord(raw)) {
    sink.issue(
      path,
      `expected a server object such as { "command": "…" } or { "url": "…" }, got ${describeType(raw)}.`,
    );
    return undefined;
  }
  let failed = false;
  const local: ValidationSink = {
    issue: (issuePath, message) => {
      failed = true;
      sink.issue(issuePath, message);
    },
    warn: sink.warn,
  };
  const config: ServerConfig = {};

  for (const key of Object.keys(raw)) {
    if (!serverEntryKeys.has(key)) {
      local.warn([...path, key], `unknown key, ignored. Known keys: ${[...serverEntryKeys].join(', ')}.`);
    }
  }

  const typeKey = ['type', 'transport', 'transportType'].find((key) => raw[key] !== undefined);
  if (typeKey !== undefined) {
    const value = raw[typeKey];
    const normalized = typeof value === 'string' ? normalizeTransportType(value) : undefined;
    if (normalized) config.type = normalized;
    else {
      local.issue(
        [...path, typeKey],
        `unknown transport ${typeof value === 'string' ? `'${value}'` : describeType(value)}. Use 'stdio', 'http' (Streamable HTTP), 'sse' or 'ws'.`,
      );
    }
  }

  const command = optionalString(raw, 'command', path, local);
  if (command !== undefined) config.command = command;

  if (raw.args !== undefined) {
    if (!Array.isArray(raw.args)) {
      local.issue(
        [...path, 'args'],
        `expected an array of strings, got ${describeType(raw.args)}. Write ["--flag", "value"].`,
      );
    } else {
      const args: string[] = [];
      raw.args.forEach((item: unknown, index: number) => {
        const text = scalarToString(item);
        if (text === undefined) {
          local.issue(
            [...path, 'args', index],
            `expected a string, got ${describeType(item)}. Write each argument as a JSON string.`,
          );
        } else args.push(text);
      });
      config.args = args;
    }
  }

  if (raw.env !== undefined) {
    const env = stringMap(raw.env, [...path, 'env'], local, 'environment variables');
    if (env) config.env = env;
  }
  if (raw.headers !== undefined) {
    const headers = stringMap(raw.headers, [...path, 'headers'], local, 'HTTP headers');
    if (headers) config.headers = headers;
  }

  if (raw.auth !== undefined) {
    const auth = validateServerAuth(raw.auth, [...path, 'auth'], local);
    if (auth !== undefined) config.auth = auth;
  }

  if (raw.hostKeys !== undefined) {
    if (!isRecord(raw.hostKeys) || !Object.values(raw.hostKeys).every(isRecord)) {
      local.issue(
        [...path, 'hostKeys'],
        `expected an object of host ids to objects of kept keys, got ${describeType(raw.hostKeys)}.`,
      );
    } else {
      config.hostKeys = structuredClone(raw.hostKeys) as Record<string, Record<string, unknown>>;
    }
  }

  for (const key of ['envFile', 'cwd', 'url', 'headersHelper', 'prefix', 'description'] as const) {
    const value = optionalString(raw, key, path, local);
    if (value !== undefined) config[key] = value;
  }

  if (raw.protocolVersion !== undefined) {
    const version = raw.protocolVersion;
    if (typeof version !== 'string' || !supportedProtocolVersions.includes(version)) {
      local.issue(
        [...path, 'protocolVersion'],
        `expected one of ${supportedProtocolVersions.map((known) => `"${known}"`).join(', ')}, got ${typeof version === 'string' ? `"${version}"` : describeType(version)}. Leave it out to negotiate (modern first, then the 2025 handshake).`,
      );
    } else {
      config.protocolVersion = version;
    }
  }

  if (raw.timeouts !== undefined) {
    if (!isRecord(raw.timeouts)) {
      local.issue(
        [...path, 'timeouts'],
        `expected { "connectMs": 30000, "callMs": 60000, "maxTotalMs": 600000 }, got ${describeType(raw.timeouts)}.`,
      );
    } else {
      const timeouts: NonNullable<ServerConfig['timeouts']> = {};
      for (const [key, value] of Object.entries(raw.timeouts)) {
        if (key !== 'connectMs' && key !== 'callMs' && key !== 'maxTotalMs') {
          local.warn(
            [...path, 'timeouts', key],
            'unknown timeout, ignored. Known timeouts: connectMs, callMs, maxTotalMs.',
          );
        } else if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
          local.issue(
            [...path, 'timeouts', key],
            `expected a positive number of milliseconds, got ${typeof value === 'number' ? value : describeType(value)}.`,
          );
        } else {
          timeouts[key] = value;
        }
      }
      config.timeouts = timeouts;
    }
  }

  if (raw.approval !== undefined) {
    const approval = parseApproval(raw.approval, [...path, 'approval'], local);
    if (approval !== undefined) config.approval = approval;
  }

  if (raw.trust !== undefined) {
    try {
      config.trust = checkTrustPolicy(raw.trust, `this server's entry`);
    } catch (error) {
      local.issue([...path, 'trust'], (error as Error).message);
    }
  }

  for (const key of ['includeTools', 'excludeTools'] as const) {
    const value = raw[key];
    if (value === undefined) continue;
    if (!Array.isArray(value) || value.some((glob) => typeof glob !== 'string' || glob === '')) {
      local.issue(
        [...path, key],
        `expected an array of tool names or globs such as ["read_*", "search"], got ${describeType(value)}.`,
      );
    } else {
      config[key] = [...value];
    }
  }

  for (const key of ['enabled', 'disabled'] as const) {
    const value = raw[key];
    if (value === undefined) continue;
    if (typeof value !== 'boolean')
      local.issue([...path, key], `expected true or false, got ${describeType(value)}.`);
    else if (key === 'enabled' || value) config.enabled = key === 'enabled' ? value : false;
  }

  if (!failed) {
    const hasCommand = config.command !== undefined;
    const hasUrl = config.url !== undefined;
    if (config.type === 'stdio' && !hasCommand) {
      local.issue(path, `type 'stdio' needs a "command" (the executable to start), e.g. "command": "npx".`);
    } else if (config.type !== undefined && config.type !== 'stdio' && !hasUrl) {
      local.issue(path, `type '${config.type}' needs a "url", e.g. "url": "https://example.com/mcp".`);
    } else if (config.type === undefined && !hasCommand && !hasUrl) {
      local.issue(
        path,
        'has neither "command" nor "url". Add "command" (and "args") to start a local server, or "url" to reach a remote one.',
      );
    } else if (config.type === undefined && hasCommand && hasUrl) {
      local.issue(
        path,
        'has both "command" and "url". Remove one, or set "type" to say which transport to use.',
      );
    }
  }
  return failed ? undefined : config;
}

/** What a config document holds once validated (before variable expansion). */
export interface ValidatedDocument {
  servers: Record<string, ServerConfig>;
  allowedServers?: string[];
}

/**
 * Validates a whole document whose servers sit under `serversKey` (`mcpServers`, or `servers` for
 * VS Code). Unknown top-level keys are other tools' business and are left alone.
 */
export function validateConfigDocument(
  value: unknown,
  sink: ValidationSink,
  serversKey: 'mcpServers' | 'servers' = 'mcpServers',
  basePath: JsonPathSegment[] = [],
): ValidatedDocument {
  const result: ValidatedDocument = { servers: {} };
  if (!isRecord(value)) {
    sink.issue(
      basePath,
      `expected an object such as { "${serversKey}": { … } }, got ${describeType(value)}.`,
    );
    return result;
  }
  const servers = value[serversKey];
  if (servers !== undefined) {
    if (!isRecord(servers)) {
      sink.issue(
        [...basePath, serversKey],
        `expected an object of servers by name, got ${describeType(servers)}.`,
      );
    } else {
      for (const [name, entry] of Object.entries(servers)) {
        const path = [...basePath, serversKey, name];
        if (name.trim() === '') {
          sink.issue(path, 'a server name must not be empty.');
          continue;
        }
        const config = validateServerEntry(entry, path, sink);
        if (config) result.servers[name] = config;
      }
    }
  }
  const allowed = value.allowedServers;
  if (allowed !== undefined) {
    if (!Array.isArray(allowed)) {
      sink.issue(
        [...basePath, 'allowedServers'],
        `expected an array of server names, got ${describeType(allowed)}.`,
      );
    } else {
      const names: string[] = [];
      allowed.forEach((item: unknown, index: number) => {
        if (typeof item === 'string') names.push(item);
        else
          sink.issue(
            [...basePath, 'allowedServers', index],
            `expected a server name string, got ${describeType(item)}.`,
          );
      });
      result.allowedServers = names;
    }
  }
  return result;
}
