/**
 * The embedder of `select` and `doctor` when the default model is not in the model cache (an empty
 * home here): the offline model at once, no network attempt, no "fetch failed" warning, and a hint
 * on how to download the default model, shown on the first run only. A model named in
 * SWITCHBOARD_EMBEDDING_MODEL still goes to the network. Every fetch of the built CLI is recorded
 * and refused by a preload (test/fixtures/record-fetch.mjs).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { everythingStdio } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from './run-cli-helper.js';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const recorder = fileURLToPath(new URL('./fixtures/record-fetch.mjs', import.meta.url));
const sandbox = createSandbox();
const configFile = join(sandbox.root, 'mcp.json');
const hint = 'hint: ranking with the offline model switchboard-static-en-v1';
let homes = 0;

beforeAll(() => {
  mkdirSync(sandbox.cwd, { recursive: true });
  sandbox.writeConfig(configFile, {
    everything: everythingStdio(),
  });
});
afterAll(() => sandbox.cleanup());

/** A new, empty home: no model cache, no hint shown yet. */
function freshHome(): string {
  const home = join(sandbox.root, `home-${++homes}`);
  mkdirSync(home, { recursive: true });
  return home;
}

function run(home: string, args: string[], env: Record<string, string> = {}) {
  const fetchLog = join(home, 'fetches.log');
  const result = spawnSync(process.execPath, ['--import', recorder, bin, ...args, '--config', configFile], {
    cwd: sandbox.cwd,
    // The default log level (the sandbox's is silent): warnings would show.
    env: {
      ...sandbox.env,
      HOME: home,
      SWITCHBOARD_HOME: home,
      SWITCHBOARD_LOG: 'warn',
      RECORD_FETCH_FILE: fetchLog,
      ...env,
    },
    encoding: 'utf8',
    timeout: 60_000,
  });
  const fetches = existsSync(fetchLog) ? readFileSync(fetchLog, 'utf8').split('\n').filter(Boolean) : [];
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, fetches };
}

describe('the default model, not in the cache', () => {
  it('select ranks with the offline model, without a fetch or a warning; the hint comes on the first run only', () => {
    const home = freshHome();
    const first = run(home, ['select', 'echo a message back', '-k', '3']);
    expect(first.status).toBe(0);
    // A ranking with the dense signal on: the offline model embedded the tools and the query.
    expect(first.stdout).toMatch(/^1\s+mcp__everything__echo\s+[\d.]+\s+dense #1/m);
    expect(first.stdout).toContain('Embedder: switchboard-static-en-v1');
    expect(first.fetches).toEqual([]);
    expect(first.stderr).not.toContain('fetch failed');
    expect(first.stderr).not.toContain('could not be loaded');
    expect(first.stderr).toContain(hint);
    expect(first.stderr).toContain('SWITCHBOARD_EMBEDDING_MODEL=Xenova/all-MiniLM-L6-v2 switchboard doctor');

    const second = run(home, ['select', 'echo a message back', '-k', '3']);
    expect(second.status).toBe(0);
    expect(second.stdout).toMatch(/^1\s+mcp__everything__echo/m);
    expect(second.fetches).toEqual([]);
    expect(second.stderr).not.toContain('hint:');
    expect(second.stderr).not.toContain('fetch failed');
  });

  it('doctor reports the offline model, without a fetch; the hint is shared with select', () => {
    const home = freshHome();
    const doctor = run(home, ['doctor']);
    expect(doctor.stdout).toContain('switchboard-static-en-v1 (256 dims)');
    expect(doctor.fetches).toEqual([]);
    expect(doctor.stderr).not.toContain('fetch failed');
    expect(doctor.stderr).toContain(hint);
    const select = run(home, ['select', 'echo', '-k', '1']);
    expect(select.stderr).not.toContain('hint:');
  });

  it('a --quiet run does not use the hint up', () => {
    const home = freshHome();
    const quiet = run(home, ['select', 'echo', '-k', '1', '--quiet']);
    expect(quiet.status).toBe(0);
    expect(quiet.stderr).toBe('');
    expect(run(home, ['select', 'echo', '-k', '1']).stderr).toContain(hint);
  });
});

describe('a model named in SWITCHBOARD_EMBEDDING_MODEL', () => {
  it('is fetched from the hub; when that fails, a warning and the offline model', () => {
    const home = freshHome();
    const named = run(home, ['select', 'echo a message back', '-k', '3'], {
      SWITCHBOARD_EMBEDDING_MODEL: 'Xenova/all-MiniLM-L6-v2',
    });
    expect(named.status).toBe(0);
    expect(named.fetches.some((url) => url.includes('huggingface.co/Xenova/all-MiniLM-L6-v2/'))).toBe(true);
    expect(named.stderr).toContain('could not be loaded (fetch failed)');
    expect(named.stdout).toMatch(/^1\s+mcp__everything__echo/m);
    // Asked for by name: no hint about how to ask for it.
    expect(named.stderr).not.toContain('hint:');
  });

  it('SWITCHBOARD_OFFLINE=1 keeps even a named model off the network', () => {
    const home = freshHome();
    const offline = run(home, ['select', 'echo', '-k', '1'], {
      SWITCHBOARD_EMBEDDING_MODEL: 'Xenova/all-MiniLM-L6-v2',
      SWITCHBOARD_OFFLINE: '1',
    });
    expect(offline.status).toBe(0);
    expect(offline.fetches).toEqual([]);
  });
});
