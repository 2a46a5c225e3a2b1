import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverScript } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProcessAlive, waitForProcessesGone } from './support/process-table.js';

const packageDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stdioEntry = path.join(packageDirectory, 'src/stdio.ts');

let fixtures: string;
beforeAll(() => {
  fixtures = mkdtempSync(path.join(tmpdir(), 'switchboard-orphans-'));
});
afterAll(() => {
  rmSync(fixtures, { recursive: true, force: true });
});

/** Direct children of `pid` (read from the process table). */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe.skipIf(process.platform === 'win32')('no orphans when the parent is SIGKILLed', () => {
  it('kills server-everything, a SIGTERM-ignoring server and its grandchild after the parent dies', async () => {
    const stubborn = path.join(fixtures, 'stubborn.mjs');
    writeFileSync(
      stubborn,
      `import { spawn } from 'node:child_process';
       process.on('SIGTERM', () => {});
       const child = spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"], { stdio: 'ignore' });
       process.stderr.write('grandchild ' + child.pid + '\\n');
       setInterval(() => {}, 1000);`,
    );
    const parentScript = path.join(fixtures, 'parent.mjs');
    writeFileSync(
      parentScript,
      `import { createStdioTransport } from ${JSON.stringify(stdioEntry)};
       const everything = createStdioTransport({ command: process.execPath, args: [${JSON.stringify(serverScript('server-everything'))}, 'stdio'] });
       // The stubborn server's stderr lines reach the transport's logger: its grandchild's pid among them.
       let announce;
       const announced = new Promise((resolve) => { announce = resolve; });
       const quiet = () => {};
       const logger = { info: quiet, warn: quiet, error: quiet, debug: (_context, line) => {
         const match = /grandchild (\\d+)/.exec(String(line));
         if (match) announce(Number(match[1]));
       } };
       const stubborn = createStdioTransport({ command: process.execPath, args: [${JSON.stringify(stubborn)}], killTimeoutMs: 1000, logger });
       await everything.start();
       await stubborn.start();
       const grandchild = await announced;
       process.stdout.write(JSON.stringify({ pids: [everything.pid, stubborn.pid, grandchild] }) + '\\n');
       setInterval(() => {}, 1000);`,
    );
    const parent = spawn(process.execPath, ['--import', 'tsx', parentScript], {
      cwd: packageDirectory,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    const pids = await new Promise<number[]>((resolve, reject) => {
      parent.stdout.on('data', (chunk) => {
        output += chunk;
        if (output.includes('\n')) resolve((JSON.parse(output.split('\n')[0]!) as { pids: number[] }).pids);
      });
      parent.once('exit', (code) => reject(new Error(`parent exited early with ${code}`)));
    });
    expect(pids).toHaveLength(3);
    for (const pid of pids) expect(isProcessAlive(pid)).toBe(true);
    const watchdogs = childrenOf(parent.pid!).filter((pid) =>
      readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('switchboard-watchdog'),
    );
    expect(watchdogs).toHaveLength(2);

    const parentExited = new Promise((resolve) => parent.once('exit', resolve));
    parent.kill('SIGKILL');
    await parentExited;

    expect(await waitForProcessesGone([...pids, ...watchdogs])).toEqual([]);
  });
});

describe('root entry', () => {
  it('does not load node:child_process (stdio lives on the /stdio subpath)', {
    timeout: 180_000,
  }, async () => {
    // Compiled output, run by plain node: a TypeScript loader would itself load child_process.
    const outDirectory = path.join(packageDirectory, 'node_modules/.cache', `entry-check-${process.pid}`);
    const tsc = path.join(path.dirname(fileURLToPath(import.meta.resolve('typescript'))), '../bin/tsc');
    try {
      await run(process.execPath, [
        tsc,
        '-p',
        'tsconfig.build.json',
        '--outDir',
        outDirectory,
        '--declaration',
        'false',
        '--declarationMap',
        'false',
      ]);
      const check = `const before = process.moduleLoadList.filter((m) => m.includes('child_process')).length;
        const api = await import(${JSON.stringify(path.join(outDirectory, 'index.js'))});
        api.createTransport({ command: 'node' });
        const rootLoaded = process.moduleLoadList.filter((m) => m.includes('child_process')).length;
        await import(${JSON.stringify(path.join(outDirectory, 'stdio.js'))});
        const subpathLoaded = process.moduleLoadList.filter((m) => m.includes('child_process')).length;
        console.log(JSON.stringify({ before, rootLoaded, subpathLoaded }));`;
      const output = await run(process.execPath, ['--input-type=module', '-e', check]);
      expect(JSON.parse(output)).toEqual({ before: 0, rootLoaded: 0, subpathLoaded: expect.any(Number) });
      expect((JSON.parse(output) as { subpathLoaded: number }).subpathLoaded).toBeGreaterThan(0);
    } finally {
      rmSync(outDirectory, { recursive: true, force: true });
    }
  });
});

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: packageDirectory, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.once('exit', (code) =>
      code === 0
        ? resolve(stdout.trim())
        : reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}${stdout}`)),
    );
  });
}
