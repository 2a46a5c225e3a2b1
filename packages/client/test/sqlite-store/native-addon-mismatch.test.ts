/**
 * The SQLite store under a Node.js its better-sqlite3 was not built for — what a user meets after
 * switching Node versions — produced for real: a project folder laid out as an install is
 * (`node_modules/@switchboard/client` with the built package, `node_modules/better-sqlite3` with one
 * native addon), the addon built for one Node ABI, and a Node of another ABI opening the store in
 * a child process. Either this Node loads an addon built for another one (one is there after
 * `scripts/native-addons.mjs` built a second Node's), or Node 24 (scripts/node24.mjs, as the
 * conformance tests use it) loads the addon built for this Node.
 */
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs script of the repository, without types
import { resolveNode24 } from '../../../../scripts/node24.mjs';

const require = createRequire(import.meta.url);
const clientRoot = fileURLToPath(new URL('../..', import.meta.url));
const driverRoot = dirname(require.resolve('better-sqlite3/package.json'));
const addonName = 'better_sqlite3.node';

/** The Node ABI an addon file was built for: the `node_register_module_v<ABI>` symbol it exports. */
function abiOf(file: string): number | undefined {
  const match = /node_register_module_v(\d+)/.exec(readFileSync(file).toString('latin1'));
  return match ? Number(match[1]) : undefined;
}

/** Every build of the addon beside the installed driver (build/Release, and compiled/<node>/… per Node). */
function addonBuilds(): Array<{ file: string; abi: number }> {
  const found: string[] = [];
  const walk = (folder: string) => {
    if (!existsSync(folder)) return;
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name === addonName) found.push(path);
    }
  };
  walk(join(driverRoot, 'build'));
  walk(join(driverRoot, 'compiled'));
  return found.flatMap((file) => {
    const abi = abiOf(file);
    return abi === undefined ? [] : [{ file, abi }];
  });
}

/** A Node binary and an addon built for another ABI than that Node's. */
function mismatchedPair(): { node: string; addon: string; addonAbi: number; nodeAbi: number } {
  const own = Number(process.versions.modules);
  const builds = addonBuilds();
  const foreign = builds.find((build) => build.abi !== own);
  if (foreign) return { node: process.execPath, addon: foreign.file, addonAbi: foreign.abi, nodeAbi: own };
  const native = builds.find((build) => build.abi === own);
  if (!native)
    throw new Error(`no build of ${addonName} for this Node under ${driverRoot}: run pnpm install`);
  const other = resolveNode24() as string;
  const otherAbi = Number(
    spawnSync(other, ['-p', 'process.versions.modules'], { encoding: 'utf8' }).stdout.trim(),
  );
  if (otherAbi === own) throw new Error(`${other} has this Node's ABI (${own}): no second ABI to test with`);
  return { node: other, addon: native.file, addonAbi: own, nodeAbi: otherAbi };
}

const projects: string[] = [];
afterAll(() => {
  for (const project of projects) rmSync(project, { recursive: true, force: true });
});

/** A project as npm lays it out, with the driver carrying only `addon` as its build (none: never built). */
function installProject(addon: string | undefined): string {
  const project = mkdtempSync(join(tmpdir(), 'sb-abi-'));
  projects.push(project);
  const modules = join(project, 'node_modules');
  const client = join(modules, '@switchboard', 'client');
  if (!existsSync(join(clientRoot, 'dist', 'sqlite-store', 'index.js'))) {
    throw new Error('packages/client/dist is missing: build first (pnpm build).');
  }
  mkdirSync(client, { recursive: true });
  cpSync(join(clientRoot, 'package.json'), join(client, 'package.json'));
  cpSync(join(clientRoot, 'dist'), join(client, 'dist'), { recursive: true });
  // Core resolves from its own folder: nothing of it depends on the driver.
  symlinkSync(
    realpathSync(join(clientRoot, 'node_modules', '@switchboard', 'core')),
    join(modules, '@switchboard', 'core'),
  );
  const driver = join(modules, 'better-sqlite3');
  mkdirSync(join(driver, 'build', 'Release'), { recursive: true });
  cpSync(join(driverRoot, 'package.json'), join(driver, 'package.json'));
  cpSync(join(driverRoot, 'lib'), join(driver, 'lib'), { recursive: true });
  if (addon !== undefined) cpSync(addon, join(driver, 'build', 'Release', addonName));
  // `bindings` looks for the addon from the driver's folder (here), wherever itself lives.
  symlinkSync(
    dirname(createRequire(join(driverRoot, 'package.json')).resolve('bindings/package.json')),
    join(modules, 'bindings'),
  );
  return project;
}

/** Opens the store in `project` with `node`; what it threw (or that it opened). */
function openIn(project: string, node: string) {
  const script = `
    const { openSqliteStore } = await import('@switchboard/client/sqlite-store');
    try {
      await openSqliteStore({ path: ${JSON.stringify(join(project, 'home', 'registry.db'))} });
      console.log(JSON.stringify({ opened: true }));
    } catch (error) {
      console.log(JSON.stringify({ code: error.code, message: error.message, context: error.context }));
    }`;
  const run = spawnSync(node, ['--input-type=module', '-e', script], { cwd: project, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout.trim().split('\n').pop() as string);
}

it('names the addon, both ABIs and the rebuild command instead of blaming the folder', () => {
  const pair = mismatchedPair();
  const project = installProject(pair.addon);
  const outcome = openIn(project, pair.node);
  expect(outcome.code).toBe('STORE_DRIVER_UNLOADABLE');
  expect(outcome.context).toMatchObject({
    package: 'better-sqlite3',
    kind: 'abi-mismatch',
    addonAbi: pair.addonAbi,
    nodeAbi: pair.nodeAbi,
    rebuild: 'npm rebuild better-sqlite3',
  });
  expect(outcome.message).toContain(
    `better-sqlite3 was built for another Node.js (ABI ${pair.addonAbi}, this is ${pair.nodeAbi}`,
  );
  expect(outcome.message).toContain('run npm rebuild better-sqlite3');
  expect(outcome.message).toContain(join(project, 'node_modules', 'better-sqlite3'));
  expect(outcome.message).not.toContain('folder can be created');
}, 120_000);

it('says an addon that was never built (install scripts skipped) needs the same rebuild', () => {
  const project = installProject(undefined);
  const outcome = openIn(project, process.execPath);
  expect(outcome.code).toBe('STORE_DRIVER_UNLOADABLE');
  expect(outcome.context).toMatchObject({ kind: 'not-built', rebuild: 'npm rebuild better-sqlite3' });
  expect(outcome.message).toContain('native addon was never built');
  expect(outcome.message).toContain('run npm rebuild better-sqlite3');
});
