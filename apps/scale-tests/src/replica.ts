/**
 * One Switchboard replica: a `switchboard serve --http` child process on a port of its own, kept
 * across restarts so the balancer's upstream list stays true.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readLines, waitForExit } from '@switchboard/test-helpers';
import { isRunning, stopProcess, waitForHttp } from './process-control.js';

/** What starts one replica. */
export interface ReplicaOptions {
  /** `r0`, `r1`, …: the name the tests and `--replica-id` use. */
  id: string;
  port: number;
  /** The built CLI (`packages/cli/dist/bin.js`). */
  bin: string;
  /** The mcp.json with the upstream servers. */
  configFile: string;
  /** Extra `serve` arguments (`--redis URL`, `--session-key-file F`, `--replica-id r0`, …). */
  serveArgs: string[];
  /**
   * Node arguments replacing `switchboard serve` altogether (a script of the tests' own built on
   * `@switchboard/server`, for a tool with state of its own); the port is theirs to pass.
   */
  argv?: string[];
  env: Record<string, string | undefined>;
  /** How long start and readiness may take. */
  startTimeoutMs: number;
}

/** A running (or stopped) replica. */
export interface Replica {
  id: string;
  port: number;
  /** The replica's own MCP endpoint, to call it without the balancer. */
  url: string;
  /** The current child process (a new one after `restart`). */
  readonly process: ChildProcess;
  /** Stops it with `signal` (SIGKILL after a grace period); resolves with how it ended. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /**
   * Stops it if running, then starts it again on the same port and waits until it is ready. nginx
   * sends it requests again once its passive health check lets it (`failTimeoutSeconds`).
   */
  restart(): Promise<void>;
  /** The last 64 KiB of its stderr, for failure messages. */
  output(): string;
}

const outputLimit = 64 * 1024;

/** Starts a replica and resolves once it answers `/health` (and `/ready`, where it exists). */
export async function startReplica(options: ReplicaOptions, onSpawn: (child: ChildProcess) => void) {
  let output = '';
  let child: ChildProcess;
  const origin = `http://127.0.0.1:${options.port}`;

  const launch = async () => {
    child = spawn(
      process.execPath,
      options.argv ?? [
        options.bin,
        'serve',
        '--http',
        '--port',
        String(options.port),
        ...options.serveArgs,
        '--config',
        options.configFile,
      ],
      { env: options.env, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    onSpawn(child);
    child.stderr?.on('data', (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-outputLimit);
    });
    const lines = readLines(child.stderr!, `replica ${options.id}'s stderr`);
    try {
      // `serve` (and a fixture replica) says where it listens once it does: that line is the event.
      await lines.find((line) => line.includes(` on ${origin}/`), {
        timeoutMs: options.startTimeoutMs,
        what: `replica ${options.id} to listen on ${origin}`,
      });
      // Readiness (Redis, the store) tells nobody when it comes: /ready is polled, as a balancer
      // would. It comes with the replica features; before them a 404 means "no such check": ready.
      await waitForHttp(`${origin}/ready`, {
        process: child,
        accept: [200, 404],
        timeoutMs: options.startTimeoutMs,
      });
    } catch (error) {
      // Most often the replica exited first (its stderr ended): how it exited is the news. Its
      // 'exit' may come just after its stderr's end, so it is awaited, briefly.
      const exit = await waitForExit(child, { timeoutMs: 1_000 }).catch(() => undefined);
      const reason = exit
        ? `exited (${exit.code ?? exit.signal}) before it listened`
        : (error as Error).message;
      throw new Error(`replica ${options.id}: ${reason}\n${output}`);
    }
  };

  await launch();
  const replica: Replica = {
    id: options.id,
    port: options.port,
    url: `${origin}/mcp`,
    get process() {
      return child;
    },
    stop: (signal = 'SIGTERM') => stopProcess(child, signal),
    async restart() {
      if (isRunning(child)) await stopProcess(child);
      await launch();
    },
    output: () => output,
  };
  return replica;
}
