/**
 * The inspector in a child process as a program runs it (inspector-main.ts: the config read by
 * `@switchboard/client`, port 0, no browser opened), serving the built page (`dist/page`). The URL
 * it prints on stdout (`http://127.0.0.1:PORT/?token=…`) is how the tests find it; stderr is kept
 * for the error message when it does not come up.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { UiConfig } from './ui-config.js';

const here = dirname(fileURLToPath(import.meta.url));
/** The program that starts the inspector. */
export const mainPath = join(here, 'inspector-main.ts');
/** The built page it serves (`pnpm build` first). */
const pagePath = join(here, '..', 'dist', 'page', 'index.html');

/** A running inspector. */
export interface UiProcess {
  /** The printed URL, token included. */
  url: string;
  /** `http://127.0.0.1:PORT` */
  origin: string;
  token: string;
  child: ChildProcess;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  /** SIGTERM, then SIGKILL after 5 s; resolves once it has exited. */
  stop(): Promise<void>;
}

const URL_LINE = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[\w.~%-]+)/;

/** Starts the inspector over `--config FILE` and waits for its URL. */
export async function startUi(config: UiConfig, options: { timeoutMs?: number } = {}): Promise<UiProcess> {
  if (!existsSync(pagePath)) {
    throw new Error(
      `${pagePath} is missing: build the inspector first (npx -y pnpm@12.4.2 turbo build --filter @switchboard/inspector...).`,
    );
  }
  const child = spawn(process.execPath, ['--import', 'tsx', mainPath, '--config', config.file], {
    env: {
      PATH: process.env.PATH,
      HOME: config.home,
      SWITCHBOARD_HOME: config.home,
      NO_COLOR: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => {
    stderr += text;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => fail(`printed no URL within ${options.timeoutMs ?? 30_000} ms`),
      options.timeoutMs ?? 30_000,
    );
    function fail(why: string) {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`the inspector ${why}.\nstdout: ${stdout}\nstderr: ${stderr}`));
    }
    child.stdout.on('data', (text: string) => {
      stdout += text;
      const match = URL_LINE.exec(stdout);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code, signal) => fail(`exited (${code ?? signal}) before printing its URL`));
    child.once('error', (error) => fail(`could not start: ${error.message}`));
  });
  const parsed = new URL(url);
  return {
    url,
    origin: parsed.origin,
    token: parsed.searchParams.get('token') ?? '',
    child,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(killer);
    },
  };
}
