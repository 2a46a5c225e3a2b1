/**
 * `startCluster`: N Switchboard replicas (`switchboard serve --http`) behind one nginx, as the
 * scale scenarios need them, and everything stopped again afterwards — on success, on a failed
 * start, and (SIGKILL, as a last resort) when the test process itself exits.
 */
import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePorts } from '@switchboard/test-helpers';
import { type NginxBalancer, startNginxBalancer } from './nginx-balancer.js';
import { isRunning, stopProcess } from './process-control.js';
import { type Replica, startReplica } from './replica.js';

/** What a cluster is made of. */
export interface ClusterOptions {
  /** @default 3 */
  replicas?: number;
  /**
   * Extra `switchboard serve` arguments, the same for every replica or per replica
   * (`({ id }) => ['--replica-id', id]`).
   * @default []
   */
  serveArgs?: string[] | ((replica: { index: number; id: string }) => string[]);
  /**
   * Node arguments that replace `switchboard serve` for each replica (a test's own server script);
   * `serveArgs` and `mcpServers` are then unused.
   */
  replicaArgv?: (replica: { index: number; id: string; port: number }) => string[];
  /** Added to the replicas' environment (over the defaults: a home of their own, no store, silent logs). */
  env?: Record<string, string | undefined>;
  /**
   * The upstream servers every replica serves, as in mcp.json's `mcpServers`.
   * @default { echo: the fixture in fixtures/echo-server.mjs }
   */
  mcpServers?: Record<string, unknown>;
  /**
   * How long nginx skips a replica that refused connections (its `fail_timeout`).
   * @default 10
   */
  failTimeoutSeconds?: number;
  /**
   * How long each process may take to start and be ready.
   * @default 30_000
   */
  startTimeoutMs?: number;
}

/** A running cluster. */
export interface Cluster {
  /** The MCP endpoint through nginx. */
  url: string;
  replicas: Replica[];
  nginx: NginxBalancer;
  /** Stops nginx, then every replica (SIGTERM, SIGKILL after a grace period), and removes the folder. */
  stop(): Promise<void>;
}

/** The echo/add fixture: fast to start, deterministic answers. */
export const echoServerScript = fileURLToPath(new URL('../fixtures/echo-server.mjs', import.meta.url));

/** The built `switchboard` executable, beside the CLI package's entry. */
export function cliBin(): string {
  return join(dirname(fileURLToPath(import.meta.resolve('@switchboard/cli'))), 'bin.js');
}

// Every child this module started and has not seen exit: killed if the test process goes first.
const live = new Set<ChildProcess>();
let exitHookInstalled = false;

function track(child: ChildProcess): void {
  live.add(child);
  child.once('exit', () => live.delete(child));
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const orphan of live) if (isRunning(orphan)) orphan.kill('SIGKILL');
    });
  }
}

/** Starts the replicas, waits until each is ready, starts nginx in front, and returns the cluster. */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const count = options.replicas ?? 3;
  const startTimeoutMs = options.startTimeoutMs ?? 30_000;
  const root = mkdtempSync(join(tmpdir(), 'switchboard-cluster-'));
  // Started by root, nginx's workers run as nobody and must reach its temp folders under the root:
  // a 0700 folder would fail every request body over 16 KiB (those go to client_body_temp).
  chmodSync(root, 0o755);
  const configFile = join(root, 'mcp.json');
  const mcpServers = options.mcpServers ?? { echo: { command: process.execPath, args: [echoServerScript] } };
  writeFileSync(configFile, JSON.stringify({ mcpServers }, null, 2));

  const replicas: Replica[] = [];
  // This cluster's children, also the ones of a replica whose start failed (not in `replicas`).
  const children = new Set<ChildProcess>();
  const onSpawn = (child: ChildProcess) => {
    track(child);
    children.add(child);
  };
  let nginx: NginxBalancer | undefined;
  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      await nginx?.stop();
      await Promise.all(replicas.map((replica) => replica.stop('SIGTERM')));
      await Promise.all([...children].filter(isRunning).map((child) => stopProcess(child, 'SIGKILL')));
      rmSync(root, { recursive: true, force: true });
    })();
    return stopped;
  };

  try {
    const bin = cliBin();
    const ports = await freePorts(count + 1);
    const starting: Array<Promise<Replica>> = [];
    for (let index = 0; index < count; index++) {
      const id = `r${index}`;
      const home = join(root, id);
      mkdirSync(home, { recursive: true });
      const serveArgs =
        typeof options.serveArgs === 'function'
          ? options.serveArgs({ index, id })
          : (options.serveArgs ?? []);
      starting.push(
        startReplica(
          {
            id,
            port: ports[index]!,
            bin,
            configFile,
            serveArgs,
            ...(options.replicaArgv ? { argv: options.replicaArgv({ index, id, port: ports[index]! }) } : {}),
            env: {
              ...process.env,
              HOME: home,
              SWITCHBOARD_HOME: home,
              SWITCHBOARD_STORE: 'off',
              SWITCHBOARD_LOG: 'silent',
              NO_COLOR: '1',
              ...options.env,
            },
            startTimeoutMs,
          },
          onSpawn,
        ).then((replica) => {
          replicas.push(replica);
          return replica;
        }),
      );
    }
    const started = await Promise.allSettled(starting);
    const failure = started.find((result) => result.status === 'rejected');
    if (failure) throw failure.reason;
    replicas.sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true }));
    nginx = await startNginxBalancer(
      {
        dir: join(root, 'nginx'),
        port: ports[count]!,
        upstreams: replicas.map((replica) => ({ host: '127.0.0.1', port: replica.port })),
        ...(options.failTimeoutSeconds !== undefined
          ? { failTimeoutSeconds: options.failTimeoutSeconds }
          : {}),
        startTimeoutMs,
      },
      onSpawn,
    );
    return { url: nginx.url, replicas, nginx, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
