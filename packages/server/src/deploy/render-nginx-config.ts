/**
 * The nginx config that balances Switchboard replicas (`switchboard deploy nginx`): a pure function
 * from options to the text of one complete `nginx.conf`, so it is tested without nginx, and the
 * command, the scale tests and the server's scale bench render the same file. It lives in the
 * server (which the cli sits on) so the server's bench can use it; the cli re-exports it.
 *
 * What it must get right for MCP over Streamable HTTP: plain round robin (2026-07-28 requests are
 * stateless, and 2025 sessions are meant to be shared by the replicas, so nothing is sticky),
 * streams passed on as they are written, and no POST sent twice (a tool call is not idempotent).
 */

/** A host and port nginx connects to or listens on. */
export interface NginxAddress {
  /** A host name, an IPv4 address, or an IPv6 address in brackets (`[::1]`). */
  host: string;
  port: number;
}

/** What `renderNginxConfig` needs. */
export interface NginxConfigOptions {
  /** Where nginx accepts clients. */
  listen: NginxAddress;
  /** The Switchboard replicas (`switchboard serve --http`), served in turn. */
  upstreams: NginxAddress[];
  /**
   * The folder nginx runs in: pid file, logs and temp files are written under it with absolute
   * paths. Without it they are relative, and nginx resolves them against its `-p` prefix.
   */
  prefix?: string;
  /**
   * The MCP endpoint of the replicas, proxied with streaming settings.
   * @default '/mcp'
   */
  path?: string;
  /**
   * nginx worker processes.
   * @default 'auto'
   */
  workerProcesses?: number | 'auto';
  /**
   * Idle keep-alive connections each worker keeps open to the replicas.
   * @default 32
   */
  keepalive?: number;
  /**
   * Failed attempts (connection errors, timeouts) within `failTimeoutSeconds` that take a replica
   * out of rotation for `failTimeoutSeconds`: nginx's passive health check.
   * @default 3
   */
  maxFails?: number;
  /** @default 10 */
  failTimeoutSeconds?: number;
}

/** The name of the upstream block; also what the access log's format is called. */
const upstreamName = 'switchboard';

/** The `host:port` form nginx reads. */
export function formatNginxAddress(address: NginxAddress): string {
  return `${address.host}:${address.port}`;
}

// Characters that would end a directive, open a block, start a variable or break the quoting: a
// value carrying one would change the config rather than fill it in.
const unsafeInConfig = /[\s;{}"'$\\#]/;

function checkSafe(what: string, value: string): void {
  if (value === '' || unsafeInConfig.test(value)) {
    throw new TypeError(`renderNginxConfig: ${what} ${JSON.stringify(value)} cannot go into nginx.conf.`);
  }
}

function checkAddress(what: string, address: NginxAddress): void {
  checkSafe(`${what} host`, address.host);
  if (!Number.isInteger(address.port) || address.port < 1 || address.port > 65535) {
    throw new TypeError(`renderNginxConfig: ${what} port ${address.port} is not 1-65535.`);
  }
}

/** The text of a complete nginx.conf for `options` (throws a TypeError on values nginx could misread). */
export function renderNginxConfig(options: NginxConfigOptions): string {
  const path = options.path ?? '/mcp';
  const workers = options.workerProcesses ?? 'auto';
  const keepalive = options.keepalive ?? 32;
  const maxFails = options.maxFails ?? 3;
  const failTimeout = options.failTimeoutSeconds ?? 10;
  checkAddress('listen', options.listen);
  if (options.upstreams.length === 0) throw new TypeError('renderNginxConfig: no upstreams.');
  for (const upstream of options.upstreams) checkAddress('upstream', upstream);
  if (!path.startsWith('/')) throw new TypeError(`renderNginxConfig: path "${path}" must start with /.`);
  checkSafe('path', path);
  if (options.prefix !== undefined) {
    if (!options.prefix.startsWith('/')) {
      throw new TypeError(`renderNginxConfig: prefix "${options.prefix}" must be an absolute path.`);
    }
    checkSafe('prefix', options.prefix);
  }
  // Under the prefix: absolute when we know it, else relative (nginx resolves those against `-p`).
  const under = (name: string) =>
    options.prefix === undefined ? name : `${options.prefix.replace(/\/+$/, '')}/${name}`;
  const dir = options.prefix?.replace(/\/+$/, '') ?? 'DIR';
  const servers = options.upstreams.map(
    (upstream) =>
      `        server ${formatNginxAddress(upstream)} max_fails=${maxFails} fail_timeout=${failTimeout}s;`,
  );

  const count = options.upstreams.length;
  return `# nginx in front of ${count} Switchboard ${count === 1 ? 'replica' : 'replicas'} — written by \`switchboard deploy nginx\`.
#
# Run it as a local process (no root needed for a port above 1023):
#   mkdir -p ${dir} && switchboard deploy nginx … > ${dir}/nginx.conf
#   nginx -p ${dir} -c ${dir}/nginx.conf -e ${dir}/error.log
# \`daemon off\` is set below, so nginx stays in the foreground as the caller's child (do not pass
# -g 'daemon off;' as well: nginx refuses a duplicate directive). The pid file, the logs and the temp
# files all lie under the prefix; -e moves the log nginx opens before it has read this file.
# Check it: nginx -t -p ${dir} -c ${dir}/nginx.conf -e ${dir}/error.log
# Stop it: SIGQUIT lets open streams finish, SIGTERM closes them (nginx -p ${dir} -c … -s quit).
# Started by root, the workers run as nobody: they must be able to reach the temp folders (request
# bodies over 16 KiB are written to client_body_temp), so keep the prefix and its parents 0755.

daemon off;
worker_processes ${workers};
pid ${under('nginx.pid')};
error_log ${under('error.log')} warn;

events {
    # An open stream holds two connections (client and replica).
    worker_connections 1024;
}

http {
    client_body_temp_path ${under('client_body_temp')};
    proxy_temp_path ${under('proxy_temp')};
    fastcgi_temp_path ${under('fastcgi_temp')};
    uwsgi_temp_path ${under('uwsgi_temp')};
    scgi_temp_path ${under('scgi_temp')};

    # upstream= is the replica that answered (more than one, comma-separated, when nginx moved on
    # after a connection error); replica= is its x-switchboard-replica header, where it sends one.
    log_format ${upstreamName} '$remote_addr [$time_iso8601] "$request" $status $body_bytes_sent '
                           'upstream=$upstream_addr upstream_status=$upstream_status '
                           'replica=$upstream_http_x_switchboard_replica '
                           'request_time=$request_time upstream_time=$upstream_response_time';
    access_log ${under('access.log')} ${upstreamName};

    upstream ${upstreamName} {
        # Round robin, nothing sticky: 2026-07-28 requests carry their state, and 2025 sessions are
        # shared by the replicas (sealed session ids, Redis), so any replica can take any request.
        # max_fails/fail_timeout: a replica that keeps refusing connections is skipped for a while;
        # the zone shares that verdict (and the turn) among the workers.
        zone ${upstreamName}_upstreams 64k;
${servers.join('\n')}
        # Idle HTTP/1.1 connections kept open per worker. nginx closes them itself, well before the
        # replicas' own 65 s keep-alive timeout and within their drain timeout (10 s): a replica that
        # drains waits for nginx to close its idle connections rather than closing them itself,
        # since a POST written on a socket the replica is closing would be lost (never re-sent).
        keepalive ${keepalive};
        keepalive_timeout 4s;
    }

    server {
        listen ${formatNginxAddress(options.listen)};
        # Tool authors name Mcp-Param-* headers; nginx would drop the ones with an underscore.
        underscores_in_headers on;
        # The replicas' own body limit (4 MiB); nginx's default of 1 MiB would refuse first.
        client_max_body_size 4m;

        # Every request header goes to the replica as sent — Mcp-Session-Id, Last-Event-ID,
        # MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Param-*, Authorization — and every
        # response header back (Mcp-Session-Id, WWW-Authenticate, x-switchboard-replica).
        proxy_pass_request_headers on;
        proxy_http_version 1.1;
        # Keep-alive to the replicas: no "Connection: close" from the client is passed on.
        proxy_set_header Connection "";
        # The client's Host: a replica bound to loopback checks it (DNS rebinding protection).
        proxy_set_header Host $host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;

        # Retries: only a request that never reached a replica. With "error timeout" nginx moves to
        # the next replica when connecting fails or times out; a POST (a tool call) that was sent is
        # never sent again, because nginx retries a non-idempotent request only when
        # "non_idempotent" is listed here — which it must not be: the call may have run already.
        # http_502/503 are not listed either, so a replica's own error answer reaches the client.
        proxy_next_upstream error timeout;
        proxy_next_upstream_tries ${Math.min(options.upstreams.length, 3)};
        proxy_next_upstream_timeout 10s;
        proxy_connect_timeout 5s;

        location = ${path} {
            proxy_pass http://${upstreamName};
            # Server-sent events (POST answers with progress, GET streams) pass as they are written.
            proxy_buffering off;
            proxy_cache off;
            # A stream may stay quiet for long: a GET stream waiting for notifications, a slow tool.
            proxy_read_timeout 1h;
            proxy_send_timeout 1h;
            # For a proxy in front of this one (another nginx, an ingress): do not buffer either.
            add_header X-Accel-Buffering no always;
        }

        # /health, /ready, /.well-known/oauth-protected-resource, the REST endpoint.
        location / {
            proxy_pass http://${upstreamName};
        }
    }
}
`;
}
