// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text holds ${VAR} references on purpose
/**
 * `switchboard servers export` and `servers install-gateway` against real files in a temp home:
 * the diff comes first, nothing is written without --yes (or a yes at the terminal), a write
 * leaves a backup, and install-gateway ends with a host whose one entry runs the real
 * `switchboard serve`, which the real client connects to and calls an upstream's tool through.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { connectMcp, importConfig } from '@switchboard/client';
import { gatewayConnectOptions } from '@switchboard/gateway';
import { serverScript } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from './run-cli-helper.js';

const sandbox = createSandbox();
const switchboardConfig = join(sandbox.root, 'switchboard.json');
const cursorFile = join(sandbox.home, '.cursor', 'mcp.json');
const cursorText =
  '{\n  // my Cursor servers\n  "mcpServers": {\n    "kept": { "command": "kept-server" }\n  }\n}\n';

beforeAll(() => {
  mkdirSync(sandbox.cwd, { recursive: true });
  mkdirSync(join(sandbox.home, '.cursor'), { recursive: true });
  writeFileSync(
    switchboardConfig,
    JSON.stringify({
      mcpServers: {
        echo: { command: 'node', args: ['echo-server.js'] },
        docs: { url: 'https://docs.example.com/mcp', headers: { Authorization: 'Bearer ${DOCS_TOKEN}' } },
      },
    }),
  );
});
afterAll(() => sandbox.cleanup());

describe('switchboard servers export', () => {
  it('--dry-run prints the diff and writes nothing', async () => {
    writeFileSync(cursorFile, cursorText);
    const run = await sandbox.run([
      'servers',
      'export',
      '--to',
      'cursor',
      '--dry-run',
      '--config',
      switchboardConfig,
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`--- ${cursorFile}`);
    expect(run.stdout).toContain('+    "echo": {');
    expect(run.stdout).toContain('+      "headers": {');
    expect(run.stdout).toContain('"Authorization": "Bearer ${env:DOCS_TOKEN}"');
    expect(run.stdout).toContain('Dry run');
    expect(readFileSync(cursorFile, 'utf8')).toBe(cursorText);
    expect(readdirSync(join(sandbox.home, '.cursor'))).toEqual(['mcp.json']);
  });

  it('without --yes and without a terminal it shows the diff and refuses; a no at the prompt writes nothing', async () => {
    writeFileSync(cursorFile, cursorText);
    const refused = await sandbox.run(['servers', 'export', '--to', 'cursor', '--config', switchboardConfig]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('+    "echo": {');
    expect(refused.stderr).toContain('Pass --yes to write it');
    const asked: string[] = [];
    const declined = await sandbox.run(
      ['servers', 'export', '--to', 'cursor', '--config', switchboardConfig],
      {
        confirm: async (question) => {
          asked.push(question);
          return false;
        },
      },
    );
    expect(declined.code).toBe(0);
    expect(asked).toEqual([`Write ${cursorFile}?`]);
    expect(readFileSync(cursorFile, 'utf8')).toBe(cursorText);
  });

  it('--yes writes the host format, keeps the comment and the host’s other servers, and reports the backup', async () => {
    writeFileSync(cursorFile, cursorText);
    const run = await sandbox.run([
      'servers',
      'export',
      '--to',
      'cursor',
      '--yes',
      '--config',
      switchboardConfig,
    ]);
    expect(run.code).toBe(0);
    const backup = /kept as (\S+\.bak-\d{8}T\d{6}Z)\)/.exec(run.stdout)?.[1];
    expect(backup).toBeDefined();
    expect(readFileSync(backup as string, 'utf8')).toBe(cursorText);
    const text = readFileSync(cursorFile, 'utf8');
    expect(text).toContain('// my Cursor servers');
    expect(text).toContain('"kept": { "command": "kept-server" }');
    expect(text).toContain('"Authorization": "Bearer ${env:DOCS_TOKEN}"');
    const again = await sandbox.run([
      'servers',
      'export',
      '--to',
      'cursor',
      '--yes',
      '--config',
      switchboardConfig,
    ]);
    expect(again.stdout).toContain('nothing to change');
  });

  it('refuses an unknown host with the list, exit 2', async () => {
    const run = await sandbox.run(['servers', 'export', '--to', 'cursr']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("Did you mean 'cursor'");
    expect(run.stderr).toContain('goose');
  });
});

describe('switchboard servers import (YAML and TOML hosts)', () => {
  it('imports a Goose config.yaml, skipping a builtin with a warning and keeping env_keys as references', async () => {
    const source = join(sandbox.root, 'goose.yaml');
    writeFileSync(
      source,
      [
        '# goose',
        'extensions:',
        '  developer:',
        '    type: builtin',
        '    name: developer',
        '    enabled: true',
        '  github:',
        '    type: stdio',
        '    cmd: npx',
        '    args: [-y, "@modelcontextprotocol/server-github"]',
        '    envs: {}',
        '    env_keys: [GITHUB_PERSONAL_ACCESS_TOKEN]',
        '    timeout: 300',
        '    enabled: true',
        '',
      ].join('\n'),
    );
    const target = join(sandbox.root, 'from-goose.json');
    const run = await sandbox.run(
      ['servers', 'import', '--from', 'goose', '--path', source, '--config', target],
      { env: { SWITCHBOARD_LOG: undefined } },
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('warning: Skipped server "developer"');
    // --quiet: the same import, without the warning.
    const quiet = await sandbox.run(
      ['servers', 'import', '--from', 'goose', '--path', source, '--config', target, '--overwrite', '-q'],
      {
        env: { SWITCHBOARD_LOG: undefined },
      },
    );
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).not.toContain('Skipped server');
    expect(quiet.stdout).toContain('Imported 1 server');
    expect(JSON.parse(readFileSync(target, 'utf8')).mcpServers.github).toMatchObject({
      command: 'npx',
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${GITHUB_PERSONAL_ACCESS_TOKEN}' },
      timeouts: { callMs: 300_000 },
    });
  });
});

describe('switchboard servers install-gateway', () => {
  it('replaces a Claude Code file’s servers with one gateway entry the real client connects to and calls through', async () => {
    const dataDir = join(sandbox.root, 'data');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'note.txt'), 'through the gateway\n');
    const claudeFile = join(sandbox.home, '.claude.json');
    const hostText = `${JSON.stringify(
      {
        numStartups: 3,
        mcpServers: {
          everything: {
            type: 'stdio',
            command: process.execPath,
            args: [serverScript('server-everything'), 'stdio'],
          },
          files: {
            type: 'stdio',
            command: process.execPath,
            args: [serverScript('server-filesystem'), dataDir],
          },
        },
      },
      null,
      2,
    )}\n`;
    writeFileSync(claudeFile, hostText);
    const gatewayConfig = join(sandbox.root, 'gateway.json');

    const run = await sandbox.run([
      'servers',
      'install-gateway',
      '--to',
      'claude-code',
      '--yes',
      '--config',
      gatewayConfig,
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Copying everything, files');
    expect(run.stdout).toContain('-    "everything": {');

    // The originals are in Switchboard's config; the host keeps its other settings and one entry.
    const copied = JSON.parse(readFileSync(gatewayConfig, 'utf8')).mcpServers;
    expect(Object.keys(copied)).toEqual(['everything', 'files']);
    const host = JSON.parse(readFileSync(claudeFile, 'utf8'));
    expect(host.numStartups).toBe(3);
    expect(Object.keys(host.mcpServers)).toEqual(['switchboard']);
    const backups = readdirSync(sandbox.home).filter((name) => name.startsWith('.claude.json.bak-'));
    expect(backups).toHaveLength(1);
    expect(readFileSync(join(sandbox.home, backups[0] as string), 'utf8')).toBe(hostText);

    // Read the host back as Claude Code would, and connect to the one entry it has.
    const imported = await importConfig({
      from: 'claude-code',
      home: sandbox.home,
      cwd: sandbox.cwd,
      env: {},
    });
    const entry = imported.mcpServers.switchboard;
    expect(entry?.command).toBe(process.execPath);
    // The host confirms each call itself, as it did with the servers it ran: no second question.
    expect(entry?.args?.slice(-5)).toEqual(['serve', '--config', gatewayConfig, '--approval', 'host']);
    expect(existsSync(entry?.args?.[0] as string)).toBe(true);
    const connection = await connectMcp({
      // The sandbox's home and no shared store, so the test leaves nothing in the real home.
      switchboard: {
        ...entry,
        env: { SWITCHBOARD_HOME: sandbox.home, SWITCHBOARD_STORE: 'off', SWITCHBOARD_LOG: 'silent' },
      },
    });
    try {
      const echoed = await connection.relayTool('switchboard', 'mcp__everything__echo', {
        message: 'hello upstream',
      });
      expect(JSON.stringify(echoed.content)).toContain('hello upstream');
      const read = await connection.relayTool('switchboard', 'mcp__files__read_text_file', {
        path: join(dataDir, 'note.txt'),
      });
      expect(JSON.stringify(read.content)).toContain('through the gateway');
    } finally {
      await connection.close();
    }

    // The host has every tool it had (those that need approval too, write_file among them), and a
    // call of one runs without a question from the gateway, though this host could answer one.
    // Connected as the gateway connects them (declaring what it forwards: server-everything lists
    // its elicitation, sampling and roots tools only to a client that declares those).
    const direct = await connectMcp(
      {
        everything: { command: process.execPath, args: [serverScript('server-everything'), 'stdio'] },
        files: { command: process.execPath, args: [serverScript('server-filesystem'), dataDir] },
      },
      gatewayConnectOptions(),
    );
    const had = direct.registry
      .list()
      .map((tool) => tool.name)
      .sort();
    await direct.close();
    const hostClient = new Client(
      { name: 'claude-code', version: '1.0.0' },
      { capabilities: { elicitation: {} } },
    );
    const questions: string[] = [];
    hostClient.setRequestHandler(ElicitRequestSchema, (request) => {
      questions.push(request.params.message);
      return { action: 'decline' };
    });
    await hostClient.connect(
      new StdioClientTransport({
        command: entry?.command as string,
        args: entry?.args ?? [],
        env: { SWITCHBOARD_HOME: sandbox.home, SWITCHBOARD_STORE: 'off', SWITCHBOARD_LOG: 'silent' },
        stderr: 'ignore',
      }),
    );
    try {
      const listed = (await hostClient.listTools()).tools.map((tool) => tool.name).sort();
      expect(listed).toEqual(had);
      expect(listed).toContain('mcp__files__write_file');
      const written = await hostClient.callTool({
        name: 'mcp__files__write_file',
        arguments: { path: join(dataDir, 'from-host.txt'), content: 'the host asked' },
      });
      expect(written.isError ?? false).toBe(false);
      expect(readFileSync(join(dataDir, 'from-host.txt'), 'utf8')).toBe('the host asked');
      expect(questions).toEqual([]);
    } finally {
      await hostClient.close();
    }

    // A second run finds the gateway in place and changes nothing.
    const again = await sandbox.run([
      'servers',
      'install-gateway',
      '--to',
      'claude-code',
      '--yes',
      '--config',
      gatewayConfig,
    ]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('nothing to change');
    expect(readdirSync(sandbox.home).filter((name) => name.startsWith('.claude.json.bak-'))).toHaveLength(1);
  }, 60_000);

  it('refuses to overwrite a different server of the same name in Switchboard’s config, changing nothing', async () => {
    const file = join(sandbox.root, 'windsurf.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { echo: { command: 'other-echo' } } }));
    const run = await sandbox.run([
      'servers',
      'install-gateway',
      '--to',
      'windsurf',
      '--path',
      file,
      '--yes',
      '--config',
      switchboardConfig,
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('already has different servers named echo');
    expect(JSON.parse(readFileSync(file, 'utf8')).mcpServers).toEqual({ echo: { command: 'other-echo' } });
  });
});
