/**
 * A registry of the run's own: verdaccio (a devDependency of this package) on a free loopback port,
 * with its storage in the run's folder. `@switchboard/*` lives only here (never proxied: a name
 * that was not published fails instead of coming from the public registry); every other package is
 * proxied to the registry npm is configured with, without being stored, so installs through it
 * fetch what a user's would.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { freePort } from '@switchboard/test-helpers';
import { killGroup, runCommand, succeeded } from './run-command.js';

/** A running local registry. */
export interface LocalRegistry extends AsyncDisposable {
  /** `http://127.0.0.1:PORT/`. */
  url: string;
  /** An npm user config (`npm_config_userconfig`) with this registry and a token that may publish. */
  npmrc: string;
  /** What verdaccio printed (for a failure message). */
  log(): string;
  stop(): Promise<void>;
}

const require = createRequire(import.meta.url);

/** The registry the machine's npm uses (`npm config get registry`: its npmrc files and environment). */
export async function upstreamRegistry(): Promise<string> {
  const asked = await runCommand('npm', ['config', 'get', 'registry'], { cwd: tmpdir(), env: process.env });
  const configured = (succeeded(asked) && asked.stdout.trim()) || 'https://registry.npmjs.org/';
  return configured.endsWith('/') ? configured : `${configured}/`;
}

/** The machine's proxy for the uplink, as verdaccio spells it (it does not read the environment itself). */
function uplinkProxy(): string[] {
  const proxy = process.env.https_proxy ?? process.env.HTTPS_PROXY;
  return proxy ? [`    https_proxy: ${JSON.stringify(proxy)}`] : [];
}

function verdaccioConfig(dir: string, upstream: string): string {
  return [
    `storage: ${JSON.stringify(join(dir, 'storage'))}`,
    'auth:',
    '  htpasswd:',
    `    file: ${JSON.stringify(join(dir, 'htpasswd'))}`,
    'uplinks:',
    '  upstream:',
    `    url: ${JSON.stringify(upstream)}`,
    '    cache: false',
    '    timeout: 60s',
    ...uplinkProxy(),
    'packages:',
    "  '@switchboard/*':",
    '    access: $all',
    '    publish: $authenticated',
    '    unpublish: $authenticated',
    "  '**':",
    '    access: $all',
    '    proxy: upstream',
    // The tool-selection tarball carries its offline model (above verdaccio's 10 MB default).
    'max_body_size: 200mb',
    'log: { type: stdout, format: pretty, level: warn }',
    '',
  ].join('\n');
}

/** Starts verdaccio in `dir` (made if missing), creates a user and writes an npmrc with its token. */
export async function startLocalRegistry(dir: string): Promise<LocalRegistry> {
  mkdirSync(join(dir, 'storage'), { recursive: true });
  const config = join(dir, 'config.yaml');
  writeFileSync(config, verdaccioConfig(dir, await upstreamRegistry()));
  const port = await freePort();
  const bin = join(dirname(require.resolve('verdaccio/package.json')), 'bin', 'verdaccio');
  const child: ChildProcess = spawn(
    process.execPath,
    [bin, '--config', config, '--listen', `127.0.0.1:${port}`],
    {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1' },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    killGroup(child.pid);
    await exited;
  };
  const url = `http://127.0.0.1:${port}/`;
  try {
    await answersPing(url, exited);
    const token = await createUser(url);
    const npmrc = join(dir, 'npmrc');
    writeFileSync(npmrc, `registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`);
    return { url, npmrc, log: () => output, stop, [Symbol.asyncDispose]: stop };
  } catch (error) {
    await stop();
    throw new Error(`verdaccio did not start on ${url}: ${(error as Error).message}\n${output}`);
  }
}

/** Resolves once the registry answers `/-/ping`; rejects when it exits first or after a minute. */
async function answersPing(url: string, exited: Promise<void>): Promise<void> {
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const deadline = Date.now() + 60_000;
  while (!gone && Date.now() < deadline) {
    const ok = await fetch(new URL('-/ping', url)).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await delay(100);
  }
  throw new Error(gone ? 'verdaccio exited' : 'verdaccio did not answer /-/ping within a minute');
}

/** `npm adduser`'s request: a new user, whose token may publish. */
async function createUser(url: string): Promise<string> {
  const response = await fetch(new URL('-/user/org.couchdb.user:packaging', url), {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'packaging', password: 'packaging-dry-run' }),
  });
  const body = (await response.json()) as { token?: string };
  if (!response.ok || !body.token)
    throw new Error(`creating a user answered ${response.status}: ${JSON.stringify(body)}`);
  return body.token;
}
