/**
 * `switchboard deploy nginx`: prints the nginx config that balances `switchboard serve --http`
 * replicas. The command only reads flags; `renderNginxConfig` writes the file.
 */
import type { CommandSpec } from '../cli-command.js';

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

/** The `deploy` command's spec; `runDeployCommand` in deploy-command.ts runs it. */
export const deployCommandSpec: CommandSpec = {
  name: 'deploy',
  summary: 'print a deployment config: nginx in front of serve --http replicas',
  help,
  options: {
    listen: { type: 'string' },
    upstream: { type: 'string', multiple: true },
    prefix: { type: 'string' },
    path: { type: 'string' },
  },
  subcommands: [{ name: 'nginx' }],
  optionValues: { prefix: 'directory' },
};
