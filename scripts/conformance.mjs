#!/usr/bin/env node
// `pnpm conformance:server` / `pnpm conformance:client`: runs the official MCP conformance suite
// through the owning package's `conformance` script (the server package for the server side, the
// client package for the client side), so each fixture lives next to the code it judges.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const side = process.argv[2];
if (side !== 'server' && side !== 'client') {
  console.error('usage: conformance.mjs server|client');
  process.exit(2);
}
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkgDir = join(root, 'packages', side);
const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
if (!pkg.scripts?.conformance) {
  console.log(`conformance:${side}: placeholder — @switchboard/${side} has no conformance fixture yet.`);
  process.exit(0);
}
const result = spawnSync('npm', ['run', '--silent', 'conformance', '--', ...process.argv.slice(3)], {
  cwd: pkgDir,
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
