import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { connect, createServer } from 'node:net';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** Path of server-everything's entry script (started with `node`, never npx). */
export const serverEverythingEntry = path.join(
  path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist/index.js',
);

/** A port that was free a moment ago (bind port 0, read it, release it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A server-everything process serving HTTP (`streamableHttp` or `sse`) on a free port. */
export interface RunningHttpServer {
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Starts server-everything in an HTTP mode and waits until it accepts connections. */
export async function startServerEverythingHttp(
  mode: 'streamableHttp' | 'sse',
  fixedPort?: number,
): Promise<RunningHttpServer> {
  const port = fixedPort ?? (await freePort());
  const child = spawn(process.execPath, [serverEverythingEntry, mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: 'ignore',
  });
  const deadline = Date.now() + 30_000;
  while (!(await canConnect(port))) {
    if (child.exitCode !== null) throw new Error(`server-everything ${mode} exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`server-everything ${mode} did not listen on ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    port,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) {
          resolve();
          return;
        }
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}
