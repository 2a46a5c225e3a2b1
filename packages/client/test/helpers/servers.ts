/** Test helpers: where the official servers live, and starting the HTTP ones on a free port. */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/** The `dist/index.js` of an official server package. */
export function serverScript(name: 'server-everything' | 'server-filesystem' | 'server-memory'): string {
  return join(dirname(require.resolve(`@modelcontextprotocol/${name}/package.json`)), 'dist', 'index.js');
}

/** A fixture script under test/fixtures. */
export function fixture(name: string): string {
  return join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', name);
}

/** A server entry running server-memory over stdio, keeping its graph in `memoryFile`. */
/** The SDK v2 fixture server over stdio, pinned to `protocolVersion` (negotiated when undefined). */
export function sdkV2Stdio(protocolVersion?: string) {
  return {
    command: process.execPath,
    args: [fixture('sdk-v2-server.mjs')],
    ...(protocolVersion === undefined ? {} : { protocolVersion }),
  };
}

export function memoryStdio(memoryFile: string) {
  return {
    command: process.execPath,
    args: [serverScript('server-memory')],
    env: { MEMORY_FILE_PATH: memoryFile },
  };
}

/** A server entry running server-everything over stdio. */
export function everythingStdio(extra: Record<string, unknown> = {}) {
  return { command: process.execPath, args: [serverScript('server-everything'), 'stdio'], ...extra };
}

/** A port that was free a moment ago. */
export async function freePort(): Promise<number> {
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

/** A running HTTP server-everything. */
export interface HttpServer {
  url: string;
  process: ChildProcess;
  close(): Promise<void>;
}

/** Starts server-everything over Streamable HTTP (`/mcp`) or legacy SSE (`/sse`). */
export async function startEverythingHttp(
  mode: 'streamableHttp' | 'sse',
  fixedPort?: number,
): Promise<HttpServer> {
  const port = fixedPort ?? (await freePort());
  const child = spawn(process.execPath, [serverScript('server-everything'), mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => reject(new Error(`server-everything ${mode} did not start: ${seen}`)),
      30_000,
    );
    child.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (/listening|running/i.test(seen)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server-everything ${mode} exited (${code}): ${seen}`));
    });
  });
  child.stderr?.resume();
  return {
    url: `http://127.0.0.1:${port}${mode === 'sse' ? '/sse' : '/mcp'}`,
    process: child,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

/** Pids of live processes whose command line contains `marker`. */
export function processesMatching(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const commandLine = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!commandLine.includes(marker)) continue;
      const status = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Zombies have exited already; their parent just has not reaped them yet.
      if (/\) Z /.test(status)) continue;
      found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

/** Waits until `check` holds, polling; throws after `timeoutMs`. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 20_000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Pids of live processes whose environment contains `marker` (a unique value given in the entry's env). */
export function processesWithEnvironment(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/environ`, 'utf8').includes(marker)) continue;
      if (/\) Z /.test(readFileSync(`/proc/${entry}/stat`, 'utf8'))) continue;
      found.push(Number(entry));
    } catch {
      // Ended meanwhile, or not ours to read.
    }
  }
  return found;
}

/** A unique marker to put in a server's env. */
export function uniqueMarker(): string {
  return `sbtest-${process.pid}-${Math.random().toString(36).slice(2)}`;
}

/** A logger that keeps every line (message and context) for assertions. */
export function createRecordingLogger() {
  const lines: string[] = [];
  const method = (level: string) => (first: unknown, message?: string) => {
    lines.push(`${level} ${typeof first === 'string' ? first : `${JSON.stringify(first)} ${message ?? ''}`}`);
  };
  return {
    lines,
    logger: { debug: method('debug'), info: method('info'), warn: method('warn'), error: method('error') },
  };
}
