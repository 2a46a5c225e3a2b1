import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { everythingStdio, filesystemStdio } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from './run-cli-helper.js';

const sandbox = createSandbox();
// The built command (CI builds before it tests).
const cliBin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const configFile = join(sandbox.root, 'mcp.json');
const dataDir = join(sandbox.root, 'data');

beforeAll(() => {
  mkdirSync(sandbox.cwd, { recursive: true });
  mkdirSync(sandbox.home, { recursive: true });
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, 'notes.txt'), 'hello from the cli test\n');
  sandbox.writeConfig(configFile, {
    everything: everythingStdio(),
    files: filesystemStdio(dataDir),
  });
});
afterAll(() => sandbox.cleanup());

describe('switchboard (usage)', () => {
  it('lists every command in --help and exits 0', async () => {
    const run = await sandbox.run(['--help']);
    expect(run.code).toBe(0);
    for (const name of ['servers', 'tools', 'call', 'select', 'doctor', 'inspect']) {
      expect(run.stdout).toContain(name);
    }
  });

  it('suggests the nearest command for a typo, exit 2', async () => {
    const run = await sandbox.run(['toolz']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("Did you mean 'tools'");
  });

  it('rejects an unknown option with the command usage, exit 2', async () => {
    const run = await sandbox.run(['tools', '--frobnicate']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--frobnicate');
    expect(run.stderr).toContain('Usage:');
  });

  it('the built executable runs and honours exit codes', () => {
    const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
    const ok = spawnSync(process.execPath, [bin, 'servers', '--help'], { encoding: 'utf8' });
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain('servers add');
    const usage = spawnSync(process.execPath, [bin, 'nope'], { encoding: 'utf8' });
    expect(usage.status).toBe(2);
  });
});

describe('switchboard servers', () => {
  it('adds, lists and removes servers, keeping unknown fields and comments', async () => {
    const file = join(sandbox.root, 'edited.json');
    writeFileSync(file, '{\n  // my servers\n  "mcpServers": {},\n  "custom": 1\n}\n');
    let run = await sandbox.run([
      'servers',
      'add',
      'echo',
      '--config',
      file,
      '--env',
      'TOKEN=abc',
      '--',
      'node',
      'server.js',
      '--flag',
    ]);
    expect(run.code).toBe(0);
    run = await sandbox.run([
      'servers',
      'add',
      'remote',
      '--config',
      file,
      '--url',
      'http://127.0.0.1:9/mcp',
      '--header',
      'Authorization=Bearer xyz',
    ]);
    expect(run.code).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('// my servers');
    expect(text).toContain('"custom": 1');
    expect(JSON.parse(text.replace(/\/\/.*\n/, '')).mcpServers.echo).toEqual({
      command: 'node',
      args: ['server.js', '--flag'],
      env: { TOKEN: 'abc' },
    });

    run = await sandbox.run(['servers', 'list', '--config', file]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('node server.js --flag');
    expect(run.stdout).toContain('http://127.0.0.1:9/mcp');
    // Env values and header values may be secrets: never printed.
    expect(run.stdout).not.toContain('abc');
    expect(run.stdout).not.toContain('xyz');

    run = await sandbox.run(['servers', 'remove', 'echoo', '--config', file]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Did you mean 'echo'");

    run = await sandbox.run(['servers', 'remove', 'echo', '--config', file]);
    expect(run.code).toBe(0);
    run = await sandbox.run(['servers', 'list', '--config', file, '--json']);
    expect(JSON.parse(run.stdout).servers.map((server: { name: string }) => server.name)).toEqual(['remote']);
  });

  it('imports a Claude Desktop config', async () => {
    const source = join(sandbox.root, 'claude_desktop_config.json');
    writeFileSync(
      source,
      JSON.stringify({
        mcpServers: { memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] } },
      }),
    );
    const target = join(sandbox.root, 'imported.json');
    const run = await sandbox.run([
      'servers',
      'import',
      '--from',
      'claude-desktop',
      '--path',
      source,
      '--config',
      target,
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('memory');
    expect(JSON.parse(readFileSync(target, 'utf8')).mcpServers.memory.command).toBe('npx');
  });

  it('imports a Codex config.toml, keeping its tool filter and timeouts', async () => {
    const source = join(sandbox.root, 'codex-config.toml');
    writeFileSync(
      source,
      '[mcp_servers.memory]\ncommand = "npx"\nargs = ["-y", "@modelcontextprotocol/server-memory"]\nenabled_tools = ["read_graph"]\ntool_timeout_sec = 30\n',
    );
    const target = join(sandbox.root, 'imported-codex.json');
    const run = await sandbox.run([
      'servers',
      'import',
      '--from',
      'codex',
      '--path',
      source,
      '--config',
      target,
    ]);
    expect(run.code).toBe(0);
    expect(JSON.parse(readFileSync(target, 'utf8')).mcpServers.memory).toMatchObject({
      command: 'npx',
      includeTools: ['read_graph'],
      timeouts: { callMs: 30_000 },
    });
  });

  it('refuses an unknown import format with usage, exit 2', async () => {
    const run = await sandbox.run(['servers', 'import', '--from', 'emacs']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('claude-desktop');
    expect(run.stderr).toContain('codex');
  });
});

describe('switchboard tools / call / inspect against real servers', () => {
  it('lists namespaced tools with kind and approval', async () => {
    const run = await sandbox.run(['tools', '--config', configFile, '--json']);
    expect(run.code).toBe(0);
    const tools = JSON.parse(run.stdout).tools as Array<{
      name: string;
      server: string;
      kind: string;
      approval: string;
    }>;
    const echo = tools.find((tool) => tool.name === 'mcp__everything__echo');
    expect(echo?.server).toBe('everything');
    const read = tools.find((tool) => tool.name === 'mcp__files__read_text_file');
    expect(read).toMatchObject({ kind: 'read', approval: 'run' });
    const write = tools.find((tool) => tool.name === 'mcp__files__write_file');
    expect(write?.approval).toBe('ask');
  });

  it('suggests servers for an unknown server name, exit 2', async () => {
    const run = await sandbox.run(['tools', 'everythin', '--config', configFile]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("Did you mean 'everything'");
  });

  it('calls a tool and prints the result', async () => {
    const run = await sandbox.run([
      'call',
      'mcp__everything__echo',
      '--args',
      '{"message":"hi there"}',
      '--config',
      configFile,
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('hi there');
  });

  it('shows a long-running tool’s progress on stderr as it arrives, result on stdout', async () => {
    const run = await sandbox.run(
      [
        'call',
        'mcp__everything__trigger-long-running-operation',
        '--args',
        '{"duration":1,"steps":4}',
        '--timeout',
        '600',
        '--config',
        configFile,
      ],
      { env: { SWITCHBOARD_LOG: undefined } },
    );
    expect(run.code).toBe(0);
    // Not a terminal: one line per update, a bar because the server says the total.
    const lines = run.stderr.split('\n').filter((line) => line.startsWith('['));
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(lines.at(-1)).toMatch(/^\[#{24}\] 4\/4 100%/);
    expect(lines[0]).toMatch(/^\[#*-+\] 1\/4 25%/);
    expect(run.stdout).toMatch(/completed/i);
    expect(run.stdout).not.toContain('4/4');
  });

  it('shows the server’s log messages during a call, naming the server', async () => {
    const run = await sandbox.run(
      ['call', 'mcp__everything__toggle-simulated-logging', '--yes', '--config', configFile],
      { env: { SWITCHBOARD_LOG: undefined } },
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /^\[everything\] (debug|info|notice|warning|error|critical|alert|emergency): \w+[- ]level/im,
    );
  });

  it('says where invalid --args JSON broke, exit 2', async () => {
    const run = await sandbox.run([
      'call',
      'mcp__everything__echo',
      '--args',
      '{"message": hi}',
      '--config',
      configFile,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/column \d+/);
  });

  it('rejects arguments that do not match the schema, naming the problem', async () => {
    const run = await sandbox.run([
      'call',
      'mcp__everything__echo',
      '--args',
      '{"msg":"x"}',
      '--config',
      configFile,
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr + run.stdout).toContain('message');
  });

  it('suggests tools for an unknown tool name', async () => {
    const run = await sandbox.run(['call', 'mcp__everything__ecko', '--config', configFile]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("'mcp__everything__echo'");
  });

  it('says why a tool is missing: left out by excludeTools, or called by its name on its server', async () => {
    const filtered = join(sandbox.root, 'filtered.json');
    sandbox.writeConfig(filtered, { everything: everythingStdio({ excludeTools: ['get-sum'] }) });
    const excluded = await sandbox.run(['call', 'mcp__everything__get-sum', '--config', filtered]);
    expect(excluded.code).toBe(1);
    expect(excluded.stderr).toContain(
      "It is tool 'get-sum' of server 'everything', which its includeTools / excludeTools in the config leave out",
    );
    const bare = await sandbox.run(['call', 'get-env', '--config', filtered]);
    expect(bare.code).toBe(1);
    expect(bare.stderr).toContain("called by their namespaced names: 'mcp__everything__get-env'");
  });

  it('asks before a destructive tool; refuses without a terminal or --yes; runs with --yes', async () => {
    const args = JSON.stringify({ path: join(dataDir, 'out.txt'), content: 'written' });
    let run = await sandbox.run(['call', 'mcp__files__write_file', '--args', args, '--config', configFile]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('--yes');
    expect(() => readFileSync(join(dataDir, 'out.txt'), 'utf8')).toThrow();

    const questions: string[] = [];
    run = await sandbox.run(['call', 'mcp__files__write_file', '--args', args, '--config', configFile], {
      confirm: async (question) => {
        questions.push(question);
        return true;
      },
    });
    expect(run.code).toBe(0);
    expect(questions[0]).toContain('mcp__files__write_file');
    expect(readFileSync(join(dataDir, 'out.txt'), 'utf8')).toBe('written');

    run = await sandbox.run([
      'call',
      'mcp__files__write_file',
      '--yes',
      '--args',
      JSON.stringify({ path: join(dataDir, 'out.txt'), content: 'again' }),
      '--config',
      configFile,
    ]);
    expect(run.code).toBe(0);
    expect(readFileSync(join(dataDir, 'out.txt'), 'utf8')).toBe('again');
  });

  it('inspects a server: info, tools, resources, prompts', async () => {
    const run = await sandbox.run(['inspect', 'everything', '--config', configFile, '--json']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.serverInfo.name).toBeTruthy();
    // server-everything speaks only the 2025 era: the client probed, then fell back to initialize.
    expect(report.era).toBe('legacy');
    expect(report.protocolVersion).toMatch(/^2025-/);
    expect(report.tools.some((tool: { name: string }) => tool.name === 'echo')).toBe(true);
    expect(report.resources.length).toBeGreaterThan(0);
    expect(report.prompts.length).toBeGreaterThan(0);
  });
});

describe('switchboard doctor / select', () => {
  it('reports a good and a broken server, with what to try; exit 1', async () => {
    const file = join(sandbox.root, 'doctor.json');
    const servedFile = join(sandbox.root, 'served.json');
    sandbox.writeConfig(servedFile, {
      everything: everythingStdio(),
    });
    sandbox.writeConfig(file, {
      everything: everythingStdio(),
      // Switchboard's own `serve` over stdio answers both eras: a probing client lands on modern.
      modern: { command: process.execPath, args: [cliBin, 'serve', '--config', servedFile] },
      broken: { command: 'definitely-not-a-command-xyz' },
    });
    const run = await sandbox.run(['doctor', '--config', file, '--json']);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    const good = report.servers.find((server: { server: string }) => server.server === 'everything');
    expect(good.ok).toBe(true);
    expect(good.tools).toBeGreaterThan(5);
    expect(good.estimatedTokens).toBeGreaterThan(100);
    expect(Object.keys(good.providers)).toEqual(['openai-strict', 'anthropic', 'gemini']);
    expect(good.era).toBe('legacy');
    const modern = report.servers.find((server: { server: string }) => server.server === 'modern');
    expect(modern).toMatchObject({ ok: true, era: 'modern', protocolVersion: '2026-07-28' });
    const broken = report.servers.find((server: { server: string }) => server.server === 'broken');
    expect(broken.ok).toBe(false);
    expect(broken.error).toContain('definitely-not-a-command-xyz');
    expect(report.sources[0].path).toBe(file);
    expect(report.embedder.modelId ?? report.embedder.error).toBeTruthy();
  });

  it('selects file tools for a file query and reports the token saving', async () => {
    const run = await sandbox.run([
      'select',
      'read the contents of a text file',
      '-k',
      '3',
      '--config',
      configFile,
      '--json',
    ]);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.tools).toHaveLength(3);
    expect(result.tools.map((tool: { name: string }) => tool.name)).toContain('mcp__files__read_text_file');
    expect(result.tokens.savedTokens).toBeGreaterThan(0);
    expect(result.tokens.totalTools).toBeGreaterThan(20);
  });
});
