/**
 * A port of a child process starting to accept connections. That event is the one wait of this
 * package that must poll: the OS tells nobody when another process starts listening, and the
 * servers started this way (server-everything, nginx, redis) print no line that is a contract.
 * So it tries to connect every 25 ms; what bounds it is the child's `exit` event (the wait fails
 * at once, with the child's output) and the timeout.
 */
import type { ChildProcess } from 'node:child_process';
import { acceptsConnections } from './random-port.js';
import { defaultWaitTimeoutMs, type WaitOptions, waitTimedOut } from './wait-options.js';

/** Options of {@link waitForPort}. */
export interface WaitForPortOptions extends WaitOptions {
  /** The process that is to listen: its exit fails the wait at once. */
  process?: ChildProcess;
  /** What the process wrote so far (the tail of its stderr), for the failure message. */
  output?: () => string;
}

/** How often a closed port is tried again. */
const retryMs = 25;

/** Resolves once loopback `port` accepts TCP connections. */
export async function waitForPort(port: number, options: WaitForPortOptions = {}): Promise<void> {
  const timeoutMs = options.timeoutMs ?? defaultWaitTimeoutMs;
  const what = options.what ?? `port ${port} to accept connections`;
  const child = options.process;
  const detail = () => {
    const output = options.output?.().trim();
    return output ? `its output: ${output}` : undefined;
  };
  let exit: string | undefined;
  const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
    exit = `exited (${code ?? signal}) before ${what}`;
  };
  if (child && (child.exitCode !== null || child.signalCode !== null))
    onExit(child.exitCode, child.signalCode);
  child?.once('exit', onExit);
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      if (exit !== undefined)
        throw new Error(`process ${child?.pid} ${exit}${detail() ? `; ${detail()}` : ''}`);
      if (await acceptsConnections(port)) return;
      if (Date.now() > deadline) throw waitTimedOut(what, timeoutMs, detail());
      await new Promise((resolve) => setTimeout(resolve, retryMs));
    }
  } finally {
    child?.off('exit', onExit);
  }
}
