/**
 * The embedder and vector index of `select` and `doctor`, run through the built CLI. By default: the
 * offline model in the exact index, with no fetch and no warning — the same rankings with and without
 * a network. A model named in SWITCHBOARD_EMBEDDING_MODEL goes to the hub; when it cannot load (no
 * network, or @huggingface/transformers not installed) the offline model ranks and doctor says why,
 * with the error's code. SWITCHBOARD_VECTOR_INDEX=hnsw without hnswlib-node falls back to the exact
 * index, and doctor says so. Every fetch is recorded and refused by a preload
 * (test/fixtures/record-fetch.mjs); "not installed" is a preload that hides the packages
 * (`hidePackagesPreload()` of test-helpers).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { everythingStdio, hidePackagesPreload } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from './run-cli-helper.js';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const recorder = fileURLToPath(new URL('./fixtures/record-fetch.mjs', import.meta.url));
const hider = hidePackagesPreload();
const sandbox = createSandbox();
const configFile = join(sandbox.root, 'mcp.json');
let homes = 0;

beforeAll(() => {
  mkdirSync(sandbox.cwd, { recursive: true });
  sandbox.writeConfig(configFile, {
    everything: everythingStdio(),
  });
});
afterAll(() => sandbox.cleanup());

/** A new, empty home: no model cache. */
function freshHome(): string {
  const home = join(sandbox.root, `home-${++homes}`);
  mkdirSync(home, { recursive: true });
  return home;
}

function run(args: string[], env: Record<string, string> = {}) {
  const home = freshHome();
  const fetchLog = join(home, 'fetches.log');
  const result = spawnSync(
    process.execPath,
    ['--import', recorder, '--import', hider, bin, ...args, '--config', configFile],
    {
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
    },
  );
  const fetches = existsSync(fetchLog) ? readFileSync(fetchLog, 'utf8').split('\n').filter(Boolean) : [];
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, fetches };
}

interface DoctorSelection {
  embedder?: {
    modelId: string;
    dimensions: number;
    requestedModelId: string;
    source: string;
    fallbackReason?: string;
    fallbackCode?: string;
  };
  index?: {
    kind: string;
    requestedKind: string;
    source: string;
    fallbackReason?: string;
    fallbackCode?: string;
  };
}

function doctorSelection(env: Record<string, string> = {}) {
  const result = run(['doctor', '--json'], env);
  return { ...result, selection: (JSON.parse(result.stdout) as { selection: DoctorSelection }).selection };
}

describe('by default', () => {
  it('select ranks with the offline model in the exact index, without a fetch, a warning or a hint', () => {
    const first = run(['select', 'echo a message back', '-k', '3']);
    expect(first.status).toBe(0);
    // A ranking with the dense signal on: the offline model embedded the tools and the query.
    expect(first.stdout).toMatch(/^1\s+mcp__everything__echo\s+[\d.]+\s+dense #1/m);
    expect(first.stdout).toContain('Embedder: switchboard-static-en-v1');
    expect(first.fetches).toEqual([]);
    expect(first.stderr).toBe('');
  });

  it('doctor names the offline model and the exact index, and why (the default)', () => {
    const doctor = run(['doctor']);
    expect(doctor.fetches).toEqual([]);
    expect(doctor.stdout).toContain('Tool selection:');
    expect(doctor.stdout).toMatch(
      /embedder {2}switchboard-static-en-v1 \(256 dims\) — the offline model .*default/,
    );
    expect(doctor.stdout).toMatch(
      /index {5}exact: every vector scored: an int8 scan by a WebAssembly SIMD kernel, .* — default/,
    );
    const { selection } = doctorSelection();
    expect(selection.embedder).toMatchObject({ modelId: 'switchboard-static-en-v1', source: 'default' });
    expect(selection.embedder?.fallbackReason).toBeUndefined();
    expect(selection.index).toMatchObject({ kind: 'exact', requestedKind: 'exact', source: 'default' });
  });
});

describe('a model named in SWITCHBOARD_EMBEDDING_MODEL', () => {
  const named = { SWITCHBOARD_EMBEDDING_MODEL: 'Xenova/all-MiniLM-L6-v2' };

  it('is fetched from the hub; when that fails, the offline model ranks and a warning says why', () => {
    const result = run(['select', 'echo a message back', '-k', '3'], named);
    expect(result.status).toBe(0);
    expect(result.fetches.some((url) => url.includes('huggingface.co/Xenova/all-MiniLM-L6-v2/'))).toBe(true);
    expect(result.stderr).toContain(
      'Embedding model "Xenova/all-MiniLM-L6-v2" could not be loaded: fetch failed',
    );
    expect(result.stdout).toMatch(/^1\s+mcp__everything__echo/m);
    expect(result.stdout).toContain('Embedder: switchboard-static-en-v1');
  });

  it('doctor reports the fallback with its reason and code', () => {
    const { selection } = doctorSelection(named);
    expect(selection.embedder).toMatchObject({
      modelId: 'switchboard-static-en-v1',
      requestedModelId: 'Xenova/all-MiniLM-L6-v2',
      source: 'SWITCHBOARD_EMBEDDING_MODEL=Xenova/all-MiniLM-L6-v2',
      fallbackCode: 'EMBEDDER_UNAVAILABLE',
    });
    expect(selection.embedder?.fallbackReason).toContain('fetch failed');
  });

  it('without @huggingface/transformers installed: the reason names the package and how to install it', () => {
    const result = doctorSelection({ ...named, HIDE_PACKAGES: '@huggingface/transformers' });
    expect(result.fetches).toEqual([]);
    expect(result.selection.embedder).toMatchObject({
      modelId: 'switchboard-static-en-v1',
      fallbackCode: 'OPTIONAL_DEPENDENCY_MISSING',
    });
    expect(result.selection.embedder?.fallbackReason).toContain(
      'needs the optional package @huggingface/transformers, which is not installed',
    );
    expect(result.selection.embedder?.fallbackReason).toContain(
      'npm install @huggingface/transformers@^4.3.1',
    );
    const text = run(['doctor'], { ...named, HIDE_PACKAGES: '@huggingface/transformers' });
    expect(text.stdout).toMatch(
      /embedder {2}switchboard-static-en-v1 \(256 dims\) — instead of Xenova\/all-MiniLM-L6-v2/,
    );
    // The line the old doctor printed with empty reasons: "could not be loaded (), and neither could…".
    expect(text.stdout).toMatch(
      /fallback: Embedding model "Xenova\/all-MiniLM-L6-v2" needs the optional package .*\[OPTIONAL_DEPENDENCY_MISSING\]/,
    );
    expect(text.stdout).not.toContain('loaded ()');
  });

  it('SWITCHBOARD_OFFLINE=1 keeps even a named model off the network', () => {
    const offline = run(['select', 'echo', '-k', '1'], { ...named, SWITCHBOARD_OFFLINE: '1' });
    expect(offline.status).toBe(0);
    expect(offline.fetches).toEqual([]);
    expect(offline.stdout).toMatch(/^1\s+mcp__everything__echo/m);
  });

  it('a bad SWITCHBOARD_EMBEDDING_TIMEOUT_MS is a usage error naming the variable', () => {
    const result = run(['select', 'echo'], { ...named, SWITCHBOARD_EMBEDDING_TIMEOUT_MS: 'soon' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('SWITCHBOARD_EMBEDDING_TIMEOUT_MS must be a whole number');
  });
});

describe('SWITCHBOARD_VECTOR_INDEX', () => {
  it('hnsw uses hnswlib-node where it is installed', () => {
    const { selection } = doctorSelection({ SWITCHBOARD_VECTOR_INDEX: 'hnsw' });
    expect(selection.index).toMatchObject({
      kind: 'hnswlib-node',
      requestedKind: 'hnsw',
      source: 'SWITCHBOARD_VECTOR_INDEX=hnsw',
    });
  });

  it('hnsw without hnswlib-node: the exact index ranks, and doctor says why', () => {
    const env = { SWITCHBOARD_VECTOR_INDEX: 'hnsw', HIDE_PACKAGES: 'hnswlib-node' };
    const { selection } = doctorSelection(env);
    expect(selection.index).toMatchObject({
      kind: 'exact',
      requestedKind: 'hnsw',
      fallbackCode: 'OPTIONAL_DEPENDENCY_MISSING',
    });
    expect(selection.index?.fallbackReason).toContain(
      'needs the optional package hnswlib-node, which is not installed',
    );
    const select = run(['select', 'echo a message back', '-k', '3'], env);
    expect(select.status).toBe(0);
    expect(select.stdout).toMatch(/^1\s+mcp__everything__echo\s+[\d.]+\s+dense #1/m);
    expect(select.stderr).toContain('the HNSW index could not be created');
    const text = run(['doctor'], env);
    expect(text.stdout).toMatch(/index {5}exact: .* — instead of hnsw/);
    expect(text.stdout).toMatch(/fallback: The HNSW vector index needs the optional package hnswlib-node/);
  });

  it('another value is a usage error naming the variable', () => {
    const result = run(['select', 'echo'], { SWITCHBOARD_VECTOR_INDEX: 'annoy' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('SWITCHBOARD_VECTOR_INDEX must be exact or hnsw, not "annoy"');
  });
});
