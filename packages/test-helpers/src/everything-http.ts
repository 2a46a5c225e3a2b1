/**
 * server-everything over HTTP in a child process: Streamable HTTP (`/mcp`) or legacy SSE (`/sse`).
 * It cannot listen on port 0 and report back, so it gets a port that was free a moment ago (or the
 * one given, to restart a server where a client expects it), and is ready once the port accepts
 * connections. `await using` ends it at the end of the scope.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { serverScript } from './official-servers.js';
import { freePort } from './random-port.js';
import { waitForPort } from './wait-for-port.js';

/** A running HTTP server-everything; `close()` (or leaving an `await using` scope) kills it. */
export interface EverythingHttpServer extends AsyncDisposable {
  /** The endpoint: `http://127.0.0.1:<port>/mcp`, or `/sse` in `sse` mode. */
  url: string;
  port: number;
  process: ChildProcess;
  /** Kills the process (SIGKILL) and resolves once it has exited; again is a no-op. */
  close(): Promise<void>;
}

/** How long server-everything may take to accept connections on a slow, shared machine. */
const startTimeoutMs = 30_000;

function killAndWait(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve();
      return;
    }
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** Starts server-everything in `mode` on `fixedPort` (a free one when omitted). */
export async function startEverythingHttp(
  mode: 'streamableHttp' | 'sse',
  fixedPort?: number,
): Promise<EverythingHttpServer> {
  const port = fixedPort ?? (await freePort());
  const child = spawn(process.execPath, [serverScript('server-everything'), mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // The last of its stderr, for the error when it does not come up.
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });
  try {
    await waitForPort(port, {
      process: child,
      output: () => stderr,
      timeoutMs: startTimeoutMs,
      what: `server-everything ${mode} to listen on ${port}`,
    });
  } catch (error) {
    await killAndWait(child);
    throw error;
  }
  const close = () => killAndWait(child);
  return {
    url: `http://127.0.0.1:${port}${mode === 'sse' ? '/sse' : '/mcp'}`,
    port,
    process: child,
    close,
    [Symbol.asyncDispose]: close,
  };
}
