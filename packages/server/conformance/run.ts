/**
 * `pnpm conformance`: serves the conformance fixture (session mode, port 0) and runs the official
 * suite against it: `conformance server --url … --suite all`. Prints the suite's `Total:` line
 * last and exits non-zero when a check failed. Extra arguments go to the suite (e.g. `--scenario ping`).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { serve } from '../src/index.js';
import { createConformanceServer } from './server.js';

const require = createRequire(import.meta.url);
const packageJsonPath = require.resolve('@modelcontextprotocol/conformance/package.json');
const packageJson = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as {
  bin: string | Record<string, string>;
};
const bin =
  typeof packageJson.bin === 'string' ? packageJson.bin : (Object.values(packageJson.bin)[0] as string);

const handle = await serve(createConformanceServer(), {
  transport: { type: 'http', port: 0, host: '127.0.0.1', session: true },
});
const extra = process.argv.slice(2);
const args = [join(dirname(packageJsonPath), bin), 'server', '--url', handle.url as string];
if (!extra.includes('--scenario')) args.push('--suite', 'all');
args.push(...extra);

const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
let output = '';
child.stdout.on('data', (chunk: Buffer) => {
  output += chunk.toString();
  process.stdout.write(chunk);
});
const code: number = await new Promise((resolve) => child.on('close', (status) => resolve(status ?? 1)));
await handle.close();
const total = output.match(/Total: \d+ passed, \d+ failed[^\n]*/)?.[0];
const failedChecks = Number(total?.match(/(\d+) failed/)?.[1] ?? '1');
console.log(`\nswitchboard conformance (server): ${total ?? 'no Total line printed'}`);
process.exit(code !== 0 || failedChecks > 0 ? 1 : 0);
