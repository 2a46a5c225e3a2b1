/**
 * nginx in front of the replicas, from the same `renderNginxConfig` that `switchboard deploy nginx`
 * prints, run as a local foreground process under a folder of its own.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type NginxAddress, renderNginxConfig } from '@switchboard/cli';
import { waitForPort } from '@switchboard/test-helpers';
import { type AccessLogEntry, readAccessLog } from './access-log.js';
import { stopProcess } from './process-control.js';

/** The nginx binary: $SWITCHBOARD_NGINX, Debian's, or the first on PATH. */
export function nginxBinary(env: Record<string, string | undefined> = process.env): string {
  if (env.SWITCHBOARD_NGINX) return env.SWITCHBOARD_NGINX;
  return existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';
}

/** A running nginx. */
export interface NginxBalancer {
  process: ChildProcess;
  port: number;
  /** The MCP endpoint through nginx. */
  url: string;
  /** The folder with nginx.conf, the logs and the temp files. */
  dir: string;
  accessLogPath: string;
  /** The access log's entries so far. */
  entries(): AccessLogEntry[];
  /** SIGTERM (nginx's fast shutdown, which also ends the workers; a killed master would leave them). */
  stop(): Promise<void>;
}

/** What starts nginx. */
export interface NginxBalancerOptions {
  dir: string;
  port: number;
  upstreams: NginxAddress[];
  /** @default 10 */
  failTimeoutSeconds?: number;
  startTimeoutMs: number;
}

/** Writes the config, checks it with `nginx -t`, starts nginx and waits until it proxies /health. */
export async function startNginxBalancer(
  options: NginxBalancerOptions,
  onSpawn: (child: ChildProcess) => void,
): Promise<NginxBalancer> {
  mkdirSync(options.dir, { recursive: true });
  const configFile = join(options.dir, 'nginx.conf');
  writeFileSync(
    configFile,
    renderNginxConfig({
      listen: { host: '127.0.0.1', port: options.port },
      upstreams: options.upstreams,
      prefix: options.dir,
      // Two workers: the round robin and the passive health state must hold across workers too.
      workerProcesses: 2,
      ...(options.failTimeoutSeconds !== undefined ? { failTimeoutSeconds: options.failTimeoutSeconds } : {}),
    }),
  );
  const binary = nginxBinary();
  const args = ['-p', options.dir, '-c', configFile, '-e', join(options.dir, 'error.log')];
  const check = spawnSync(binary, ['-t', ...args], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx -t refused ${configFile}: ${check.stderr || check.error}`);
  let output = '';
  const child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  onSpawn(child);
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const accessLogPath = join(options.dir, 'access.log');
  const balancer: NginxBalancer = {
    process: child,
    port: options.port,
    url: `http://127.0.0.1:${options.port}/mcp`,
    dir: options.dir,
    accessLogPath,
    entries: () => readAccessLog(accessLogPath),
    stop: async () => {
      await stopProcess(child, 'SIGTERM');
    },
  };
  try {
    await waitForPort(options.port, {
      process: child,
      timeoutMs: options.startTimeoutMs,
      what: `nginx to listen on ${options.port}`,
    });
    const health = await fetch(`http://127.0.0.1:${options.port}/health`);
    if (health.status !== 200) throw new Error(`/health answered ${health.status}: ${await health.text()}`);
  } catch (error) {
    await balancer.stop();
    throw new Error(`nginx: ${(error as Error).message}\n${output}`);
  }
  return balancer;
}
