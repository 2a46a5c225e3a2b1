/**
 * The entry shape most hosts share (Claude Desktop's `mcpServers` entry: `command`, `args`, `env`,
 * or `url` and `headers`), written from a Switchboard server. Each host passes what it adds or
 * spells differently; what it has no room for is named by `unexported`.
 */
import type { ServerConfig } from '../server-config.js';
import type { EntryExport } from './entry-export.js';

/** How a host spells the common fields. */
export interface CommonEntryOptions {
  /** The host's `type` for a server (undefined: write none). @default the server's own `type` */
  type?: (config: ServerConfig) => string | undefined;
  /** The key of a remote server's endpoint. @default 'url' */
  urlKey?: string;
  /** The host reads `cwd`. @default false */
  cwd?: boolean;
  /** The host reads `envFile`. @default false */
  envFile?: boolean;
  /** The host has `disabled: true`; without it a disabled server is not exported. @default false */
  disabled?: boolean;
  /** The host runs remote servers. @default true */
  remote?: boolean;
}

/** The common fields of `config` in the host's spelling, and the ServerConfig keys they covered. */
export function commonEntry(
  config: ServerConfig,
  out: EntryExport,
  options: CommonEntryOptions = {},
): { entry: Record<string, unknown>; handled: (keyof ServerConfig)[] } {
  const entry: Record<string, unknown> = {};
  const handled: (keyof ServerConfig)[] = ['type', 'command', 'args', 'env', 'url', 'headers', 'enabled'];
  const type = options.type ? options.type(config) : config.type;
  if (type !== undefined) entry.type = type;
  if (config.command !== undefined) entry.command = out.text(config.command, 'command');
  if (config.args !== undefined)
    entry.args = config.args.map((arg, index) => out.text(arg, `args[${index}]`));
  if (config.env !== undefined) entry.env = out.map(config.env, 'env');
  if (options.cwd) handled.push('cwd');
  if (options.cwd && config.cwd !== undefined) entry.cwd = out.text(config.cwd, 'cwd');
  if (options.envFile) handled.push('envFile');
  if (options.envFile && config.envFile !== undefined) entry.envFile = out.text(config.envFile, 'envFile');
  if (config.url !== undefined) {
    if (options.remote === false) {
      out.refuse('it is a remote server and this host runs only local (stdio) servers from its file.');
    }
    entry[options.urlKey ?? 'url'] = out.text(config.url, 'url');
  }
  if (config.headers !== undefined) entry.headers = out.map(config.headers, 'headers');
  if (config.enabled === false) {
    if (options.disabled) entry.disabled = true;
    else out.refuse('it is disabled in Switchboard and this host has no way to keep a server switched off.');
  }
  return { entry, handled };
}
