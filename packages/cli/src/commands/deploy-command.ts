/**
 * `switchboard deploy nginx`: prints the nginx config that balances `switchboard serve --http`
 * replicas. The command only reads flags; `renderNginxConfig` writes the file.
 */
import { resolve } from 'node:path';
import { type NginxAddress, renderNginxConfig } from '@switchboard/server';
import type { CommandContext } from '../cli-command.js';
import { ExitCode, UsageError } from '../cli-error.js';

/** `HOST:PORT` (or `PORT` alone where a default host is given) from the value of `flag`. */
function parseAddress(flag: string, value: string, defaultHost?: string): NginxAddress {
  const colon = value.lastIndexOf(':');
  const bracketed = value.startsWith('[');
  const hasHost = colon !== -1 && (!bracketed || value.lastIndexOf(']') < colon);
  if (!hasHost && defaultHost === undefined) {
    throw new UsageError(`${flag} takes HOST:PORT (for example 127.0.0.1:3001), got '${value}'.`);
  }
  const host = hasHost ? value.slice(0, colon) : defaultHost!;
  const portText = hasHost ? value.slice(colon + 1) : value;
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port < 1 || port > 65535) {
    throw new UsageError(`${flag} '${value}': the port must be a number from 1 to 65535.`);
  }
  if (!/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)$/.test(host)) {
    throw new UsageError(
      `${flag} '${value}': '${host}' is not a host name or address (IPv6 goes in brackets: [::1]:${port}).`,
    );
  }
  return { host, port };
}

/** Runs `switchboard deploy` (its flags and help: `deployCommandSpec`). */
export async function runDeployCommand(context: CommandContext): Promise<number> {
  const { values } = context;
  const [target, ...extra] = context.positionals;
  if (target !== 'nginx') {
    throw new UsageError(
      target === undefined
        ? 'deploy needs a target: nginx.'
        : `unknown deploy target '${target}'; try nginx.`,
    );
  }
  if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}'.`);
  if (typeof values.listen !== 'string') throw new UsageError('--listen is required: the port nginx serves.');
  const upstreams = Array.isArray(values.upstream) ? values.upstream : [];
  if (upstreams.length === 0) {
    throw new UsageError('--upstream is required: give HOST:PORT of each replica (repeat the flag).');
  }
  const path = typeof values.path === 'string' ? values.path : '/mcp';
  if (!/^\/[A-Za-z0-9._~!&()*+,=:@%/-]*$/.test(path)) {
    throw new UsageError(`--path '${path}': give the URL path of the MCP endpoint, like /mcp.`);
  }
  const prefix = typeof values.prefix === 'string' ? resolve(context.io.cwd, values.prefix) : undefined;
  if (prefix !== undefined && /[\s;{}"'$\\#]/.test(prefix)) {
    throw new UsageError(`--prefix '${prefix}': nginx.conf cannot hold a path with spaces or ;{}"'$\\#.`);
  }
  const config = renderNginxConfig({
    listen: parseAddress('--listen', values.listen, '127.0.0.1'),
    upstreams: upstreams.map((upstream) => parseAddress('--upstream', upstream)),
    path,
    ...(prefix !== undefined ? { prefix } : {}),
  });
  context.io.stdout.write(config);
  return ExitCode.ok;
}
