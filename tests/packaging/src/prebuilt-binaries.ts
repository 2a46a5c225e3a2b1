/**
 * A stand-in for the GitHub release downloads of prebuilt native addons. better-sqlite3 (the cli's
 * optional SQLite store) installs with `prebuild-install || node-gyp rebuild`: on a user's machine
 * prebuild-install downloads the binary for that Node from GitHub in a second; machines here reach
 * only the npm registry, so the download fails and SQLite is compiled from source — about a minute
 * and a half of CPU per Node, which is neither what users wait for nor time CI can spare.
 *
 * So the run serves, on a loopback port, the binaries the workspace already has (its own install
 * compiled one for Node 20, `scripts/native-addons.mjs` one for Node 24), at the path prebuild-install
 * asks for, and points it there with `npm_config_better_sqlite3_binary_host` — as `npm_config_nodedir`
 * stands in for nodejs.org's headers. A binary the workspace does not have is not served: that install
 * compiles, as before (the fallback of its install script), and still passes.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { listenOnRandomPort } from '@switchboard/test-helpers';
import type { NodeRuntime } from './node-runtimes.js';
import { workspaceRoot } from './publishable-packages.js';
import { runCommand, succeeded } from './run-command.js';

/** A running mirror: the environment that points installs at it, and how to stop it. */
export interface PrebuiltMirror extends AsyncDisposable {
  /** `npm_config_better_sqlite3_binary_host`, when anything is served. */
  env: Record<string, string>;
  /** What is served: `better-sqlite3 12.11.1 for Node 20.20.2 (ABI 115)`. */
  served: string[];
  close(): Promise<void>;
}

/** The workspace's better-sqlite3 folders (pnpm keeps one per version). */
function betterSqliteDirs(): string[] {
  const store = join(workspaceRoot, 'node_modules', '.pnpm');
  if (!existsSync(store)) return [];
  return readdirSync(store)
    .filter((name) => name.startsWith('better-sqlite3@'))
    .map((name) => join(store, name, 'node_modules', 'better-sqlite3'))
    .filter((dir) => existsSync(join(dir, 'package.json')));
}

/** Every built binary in a better-sqlite3 folder: its own build, and those parked per Node version. */
function builtBinaries(dir: string): string[] {
  const found = [join(dir, 'build', 'Release', 'better_sqlite3.node')];
  const compiled = join(dir, 'compiled');
  if (existsSync(compiled)) {
    for (const version of readdirSync(compiled)) {
      found.push(join(compiled, version, process.platform, process.arch, 'better_sqlite3.node'));
    }
  }
  return found.filter((file) => existsSync(file));
}

/** The first of `binaries` that `runtime` loads, and that Node's ABI number. */
async function binaryFor(
  runtime: NodeRuntime,
  binaries: string[],
): Promise<{ file: string; abi: string } | undefined> {
  for (const file of binaries) {
    const probe = await runCommand(
      runtime.node,
      ['-e', `require(${JSON.stringify(file)}); console.log(process.versions.modules)`],
      { cwd: workspaceRoot, env: runtime.env, timeoutMs: 30_000 },
    );
    if (succeeded(probe)) return { file, abi: probe.stdout.trim() };
  }
  return undefined;
}

/** Packs `file` as prebuild-install's asset (`build/Release/better_sqlite3.node` in a .tar.gz). */
async function packAsset(file: string, dir: string, name: string): Promise<string> {
  const staging = join(dir, name.replace(/\.tar\.gz$/, ''));
  mkdirSync(join(staging, 'build', 'Release'), { recursive: true });
  const copied = await runCommand('cp', [file, join(staging, 'build', 'Release', 'better_sqlite3.node')], {
    cwd: dir,
    env: process.env,
  });
  const packed = await runCommand('tar', ['-czf', join(dir, name), '-C', staging, 'build'], {
    cwd: dir,
    env: process.env,
  });
  if (!succeeded(copied) || !succeeded(packed)) throw new Error(`cannot pack ${file} as ${name}`);
  return join(dir, name);
}

/** Serves the workspace's better-sqlite3 binaries for `runtimes` from `dir`. */
export async function startPrebuiltMirror(
  runtimes: readonly NodeRuntime[],
  dir: string,
): Promise<PrebuiltMirror> {
  mkdirSync(dir, { recursive: true });
  const assets = new Map<string, string>();
  const served: string[] = [];
  for (const packageDir of betterSqliteDirs()) {
    const version = (
      JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string }
    ).version;
    const binaries = builtBinaries(packageDir);
    for (const runtime of runtimes) {
      const found = await binaryFor(runtime, binaries);
      if (!found) continue;
      const name = `better-sqlite3-v${version}-node-v${found.abi}-${process.platform}-${process.arch}.tar.gz`;
      assets.set(`/v${version}/${name}`, await packAsset(found.file, dir, name));
      served.push(`better-sqlite3 ${version} for ${runtime.label} (ABI ${found.abi})`);
    }
  }
  const server = createServer((request, response) => {
    const asset = assets.get(request.url ?? '');
    if (!asset) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/gzip' }).end(readFileSync(asset));
  });
  const listening = await listenOnRandomPort(server);
  const close = () => listening.close();
  return {
    env: assets.size > 0 ? { npm_config_better_sqlite3_binary_host: listening.origin } : {},
    served,
    close,
    [Symbol.asyncDispose]: close,
  };
}
