/**
 * A real `switchboard serve --http` child process for the cli tests: started from the built bin on
 * port 0, found serving by the line it logs, its URL read from that line.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { readLines } from '@switchboard/test-helpers';

const bin = join(import.meta.dirname, '..', 'dist', 'bin.js');

/** A started serve process and where it serves. */
export interface ServeProcess {
  child: ChildProcess;
  url: string;
}

/** Starts `switchboard serve --http --port 0 …flags` with `env`; resolves once it serves (the caller kills it). */
export async function startServeProcess(
  name: string,
  flags: string[],
  env: NodeJS.ProcessEnv,
  started: ChildProcess[],
): Promise<ServeProcess> {
  const child = spawn(process.execPath, [bin, 'serve', '--http', '--port', '0', ...flags], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  started.push(child);
  const line = await readLines(child.stderr!, `${name}'s stderr`).find((text) => / on http:\/\//.test(text), {
    timeoutMs: 30_000,
    what: `${name} to serve`,
  });
  return { child, url: / on (http:\/\/\S+)/.exec(line)?.[1] as string };
}
