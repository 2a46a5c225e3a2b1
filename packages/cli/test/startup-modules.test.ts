/**
 * What a command loads. The built `switchboard` runs in a child process with a preload that records
 * every module it loads (test/fixtures/record-modules.mjs), and each test checks that a command
 * loads nothing it does not need: `--help` only the CLI's own files, `tools` and `call` no model,
 * index, OAuth library, framework adapter, the server package or tool selection. The SQLite driver
 * loads before their answer: the tool pins in the registry store decide what may be listed and
 * called (tool trust). A static import of any of those
 * put back on these paths fails here.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { everythingStdio } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from './run-cli-helper.js';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const spanRecorder = fileURLToPath(new URL('./fixtures/record-spans.mjs', import.meta.url));
const recorder = fileURLToPath(new URL('./fixtures/record-modules.mjs', import.meta.url));
const fixtures = new URL('./fixtures/', import.meta.url).href;
const cliDist = new URL('../dist/', import.meta.url).href;

/** Modules no start-up path of `--help`, `tools` or `call` may load, by what they are. */
const heavy: Array<[string, RegExp]> = [
  ['transformers.js', /\/node_modules\/@(xenova|huggingface)\/transformers\//],
  ['the tokenizer of the offline model', /\/node_modules\/@huggingface\/tokenizers\//],
  ['onnxruntime', /\/node_modules\/onnxruntime-(node|web|common)\//],
  ['hnswlib', /\/node_modules\/hnswlib-node\//],
  ['the USE teacher', /\/node_modules\/@energetic-ai\//],
  ['better-sqlite3', /\/node_modules\/better-sqlite3\//],
  ['node:sqlite', /^node:sqlite$/],
  ['pg', /\/node_modules\/pg(-pool|-protocol|-types|-connection-string)?\//],
  ['ioredis', /\/node_modules\/ioredis\//],
  ['jose (OAuth DPoP)', /\/node_modules\/jose\//],
  ['ajv (schemas are compiled at the first call)', /\/node_modules\/ajv(-formats)?\//],
  ['TOML and YAML parsers (other hosts’ config formats)', /\/node_modules\/(smol-toml|yaml)\//],
  ['the diff library (servers export)', /\/node_modules\/diff\//],
  ['LangChain', /\/node_modules\/@langchain\//],
  ['the AI SDK', /\/node_modules\/ai\//],
  ['Mastra', /\/node_modules\/@mastra\//],
  ['the OpenAI Agents SDK', /\/node_modules\/@openai\/agents/],
  ['OpenTelemetry, when no provider is registered', /\/node_modules\/@opentelemetry\//],
  ['framework adapters', /\/packages\/client\/dist\/(ai-sdk|langchain|openai-agents|mastra)\//],
  ['the stores', /\/packages\/client\/dist\/(sqlite-store|postgres-store)\//],
  ['@switchboard/server', /\/packages\/server\/dist\//],
  ['@switchboard/gateway', /\/packages\/gateway\/dist\//],
  ['@switchboard/inspector (switchboard ui)', /\/packages\/inspector\/dist\//],
  ['@switchboard/host-config (config editing)', /\/packages\/host-config\/dist\//],
  ['@switchboard/tool-selection', /\/packages\/tool-selection\/dist\//],
];

interface Loaded {
  beforeOutput: string[];
  all: string[];
}

const sandbox = createSandbox();
const configFile = join(sandbox.root, 'mcp.json');
let runs = 0;

beforeAll(() => {
  mkdirSync(sandbox.home, { recursive: true });
  mkdirSync(sandbox.cwd, { recursive: true });
  sandbox.writeConfig(configFile, {
    everything: everythingStdio(),
  });
});
afterAll(() => sandbox.cleanup());

/** Runs the built CLI with the recorder; returns what it loaded and printed. */
function runRecorded(args: string[]): Loaded & { status: number | null; stdout: string; stderr: string } {
  const file = join(sandbox.root, `modules-${++runs}.json`);
  const result = spawnSync(process.execPath, ['--import', recorder, bin, ...args], {
    cwd: sandbox.cwd,
    env: { ...sandbox.env, RECORD_MODULES_FILE: file },
    encoding: 'utf8',
    timeout: 60_000,
  });
  const loaded = JSON.parse(readFileSync(file, 'utf8')) as Loaded;
  return { ...loaded, status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function heavyIn(urls: string[]): string[] {
  return heavy.flatMap(([what, pattern]) => {
    const hit = urls.find((url) => pattern.test(url));
    return hit ? [`${what}: ${hit}`] : [];
  });
}

describe('what start-up loads', () => {
  it.each([
    ['--help', ['--help']],
    ['no arguments', []],
    ['tools --help', ['tools', '--help']],
    ['call --help', ['call', '--help']],
    ['servers --help', ['servers', '--help']],
    ['completion bash', ['completion', 'bash']],
  ])('%s loads the CLI’s own files and Node’s built-ins, nothing else', (_label, args) => {
    const run = runRecorded(args);
    expect(run.stdout.length).toBeGreaterThan(0);
    const foreign = run.all.filter(
      (url) => !url.startsWith('node:') && !url.startsWith(cliDist) && !url.startsWith(fixtures),
    );
    expect(foreign).toEqual([]);
  });

  it('servers list --json loads the config reader, no heavy module', () => {
    const run = runRecorded(['servers', 'list', '--json', '--config', configFile]);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).servers.map((server: { name: string }) => server.name)).toEqual([
      'everything',
    ]);
    expect(heavyIn(run.all)).toEqual([]);
  });

  it('tools prints its table with no heavy module but the store driver (the pins), and records the run', () => {
    const run = runRecorded(['tools', '--config', configFile]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('mcp__everything__echo');
    // The registry store's driver only: the pins are read before the listing is shown.
    const storeOnly = heavyIn(run.all).filter((hit) => !/^better-sqlite3:/.test(hit));
    expect(storeOnly).toEqual([]);
    const stats = spawnSync(process.execPath, [bin, 'stats', '--json'], {
      cwd: sandbox.cwd,
      env: sandbox.env,
      encoding: 'utf8',
    });
    const recorded = JSON.parse(stats.stdout) as { servers: Array<{ name: string }> };
    expect(recorded.servers.map((server) => server.name)).toContain('everything');
  });

  it('tools reads its code from the bundled bin: no file of core, transports, client, the SDK or zod', () => {
    // scripts/bundle-bin.mjs inlines them into dist/bin.js and dist/chunks/: Node 20 pays ~0.6 ms
    // per module file, and these were ~250 of the ~290 files `tools` loaded before its server spawned.
    const run = runRecorded(['tools', '--config', configFile]);
    expect(run.status).toBe(0);
    const inlined = run.beforeOutput.filter((url) =>
      /\/packages\/(core|transports|client)\/dist\/|\/node_modules\/(zod|@modelcontextprotocol\/(client|core))\//.test(
        url,
      ),
    );
    expect(inlined).toEqual([]);
    expect(run.beforeOutput.some((url) => url.startsWith(`${cliDist}chunks/`))).toBe(true);
  });

  it('call loads no heavy module but ajv and the store driver (the pins)', () => {
    const run = runRecorded([
      'call',
      'mcp__everything__echo',
      '--args',
      '{"message":"hi"}',
      '--config',
      configFile,
    ]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('hi');
    // The arguments are checked against the tool's schema: that is what ajv is for.
    // The registry store's driver too: the pins decide whether the tool may be called.
    const storeOnly = heavyIn(run.all).filter((hit) => !/^(better-sqlite3|ajv)/.test(hit));
    expect(storeOnly).toEqual([]);
  });

  it('call is still traced when a provider was registered before the CLI ran', () => {
    const spansFile = join(sandbox.root, 'spans.json');
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        spanRecorder,
        bin,
        'call',
        'mcp__everything__echo',
        '--args',
        '{"message":"hi"}',
        '--config',
        configFile,
      ],
      {
        cwd: sandbox.cwd,
        env: { ...sandbox.env, RECORD_SPANS_FILE: spansFile },
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(run.status).toBe(0);
    const spans = JSON.parse(readFileSync(spansFile, 'utf8')) as Array<{
      name: string;
      attributes: Record<string, unknown>;
    }>;
    const call = spans.find((span) => span.name.startsWith('tools/call'));
    expect(call?.attributes['gen_ai.tool.name']).toBe('echo');
  });
});
