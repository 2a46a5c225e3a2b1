/**
 * `switchboard deploy nginx`: prints the nginx config that balances `switchboard serve --http`
 * replicas. The command only reads flags; `renderNginxConfig` writes the file.
 */
import { resolve } from 'node:path';
import { type NginxAddress, renderNginxConfig } from '@switchboard/server';
import type { CliCommand } from '../cli-command.js';
import { ExitCode, UsageError } from '../cli-error.js';

const help = `Usage:
  switchboard deploy nginx --listen [HOST:]PORT --upstream HOST:PORT [--upstream HOST:PORT …]
                           [--prefix DIR] [--path /mcp]

Prints an nginx config for Switchboard replicas (switchboard serve --http) to stdout: round robin
without stickiness, HTTP/1.1 keep-alive to the replicas, server-sent events unbuffered, long read
timeouts for streams, a tool call never sent twice (only connection failures move to the next
replica), and replicas that keep failing skipped for a while. The file sets 'daemon off', so nginx
runs in the foreground as a local process, writing its pid, logs and temp files under DIR:

  mkdir -p DIR && switchboard deploy nginx --listen 8080 --upstream 127.0.0.1:3001 … > DIR/nginx.conf
  nginx -p DIR -c DIR/nginx.conf -e DIR/error.log

Options:
  --listen [HOST:]PORT   where nginx accepts clients (HOST defaults to 127.0.0.1; 0.0.0.0 for all)
  --upstream HOST:PORT   a replica; repeat for each one ([::1]:3001 for IPv6)
  --prefix DIR           write absolute paths under DIR (default: paths relative to nginx's -p)
  --path PATH            the replicas' MCP endpoint (default /mcp)

See docs/deploy.md for TLS, systemd and Kubernetes.`;

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

/** The `deploy` command. */
export const deployCommand: CliCommand = {
  name: 'deploy',
  summary: 'print a deployment config: nginx in front of serve --http replicas',
  help,
  options: {
    listen: { type: 'string' },
    upstream: { type: 'string', multiple: true },
    prefix: { type: 'string' },
    path: { type: 'string' },
  },
  async run(context) {
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
    if (typeof values.listen !== 'string')
      throw new UsageError('--listen is required: the port nginx serves.');
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
  },
};
