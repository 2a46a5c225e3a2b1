// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text holds ${VAR} references on purpose
/**
 * What `exportConfig` writes beyond a plain round trip: references in each host's syntax, secrets
 * never in clear where the host has references, servers a host cannot take left out with a
 * reason, dry runs, backups, a file changed meanwhile; and bad host files (syntax, wrong types)
 * reported with file, line and key for JSON, TOML and YAML.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServerConfig } from '@switchboard/client';
import { importConfig } from '@switchboard/client';
import { SwitchboardError } from '@switchboard/core';
import { createTemporaryDirectory, type TemporaryDirectory } from '@switchboard/test-helpers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyExportPlan, exportConfig, planExport } from '../src/export-config.js';

let temp: TemporaryDirectory;
let home: string;
let cwd: string;

beforeEach(async () => {
  temp = createTemporaryDirectory('switchboard-config-');
  home = join(temp.path, 'home');
  cwd = join(temp.path, 'work');
});

afterEach(async () => {
  temp.remove();
});

async function failure(promise: Promise<unknown>): Promise<SwitchboardError> {
  try {
    await promise;
  } catch (error) {
    if (SwitchboardError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

const docs: ServerConfig = {
  type: 'http',
  url: 'https://docs.example.com/mcp',
  headers: { Authorization: 'Bearer literal-docs-token-123', 'X-Team': '${TEAM_ID}' },
};
const github: ServerConfig = {
  command: 'npx',
  args: ['-y', '@modelcontextprotocol/server-github'],
  env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${GITHUB_TOKEN}', LOG_LEVEL: 'info' },
};

describe('exportConfig: references and secrets', () => {
  it('VS Code: ${VAR} becomes ${env:VAR}, a literal secret becomes a password input prompt', async () => {
    const path = join(cwd, '.vscode', 'mcp.json');
    const result = await exportConfig({ to: 'vscode', servers: { docs, github }, path, home, cwd, env: {} });
    const text = await readFile(path, 'utf8');
    expect(text).not.toContain('literal-docs-token-123');
    expect(text).toContain('"X-Team": "${env:TEAM_ID}"');
    expect(text).toContain('"GITHUB_PERSONAL_ACCESS_TOKEN": "${env:GITHUB_TOKEN}"');
    const written = JSON.parse(text);
    expect(written.servers.docs.headers.Authorization).toBe('Bearer ${input:docs-token}');
    expect(written.inputs).toEqual([
      {
        type: 'promptString',
        id: 'docs-token',
        description: 'header Authorization of MCP server docs',
        password: true,
      },
    ]);
    expect(result.warnings.join('\n')).toContain('VS Code will ask for it (input "docs-token")');
    expect(result.diff).not.toContain('literal-docs-token-123');
  });

  it.each([
    ['cursor', '.cursor/mcp.json', '"Authorization": "Bearer ${env:DOCS_TOKEN}"', 'set DOCS_TOKEN'],
    ['windsurf', 'mcp_config.json', '"Authorization": "Bearer ${env:DOCS_TOKEN}"', 'set DOCS_TOKEN'],
    ['claude-code', '.mcp.json', '"Authorization": "Bearer ${DOCS_TOKEN}"', 'set DOCS_TOKEN'],
    ['gemini-cli', 'settings.json', '"Authorization": "Bearer ${DOCS_TOKEN}"', 'set DOCS_TOKEN'],
    ['codex', 'config.toml', 'bearer_token_env_var = "DOCS_TOKEN"', 'set DOCS_TOKEN'],
    ['continue', 'config.yaml', 'Authorization: Bearer ${{ secrets.DOCS_TOKEN }}', 'set DOCS_TOKEN'],
  ] as const)(
    '%s: a literal bearer token is written as a reference, with the variable to set',
    async (to, file, line, warning) => {
      const path = join(temp.path, to, file);
      const result = await exportConfig({ to, servers: { docs }, path, home, cwd, env: {} });
      const text = await readFile(path, 'utf8');
      expect(text).toContain(line);
      expect(text).not.toContain('literal-docs-token-123');
      expect(result.warnings.join('\n')).toContain(warning);
      // And it reads back as a reference, never a value.
      const back = await importConfig({ from: to, path, home, cwd, env: {} });
      expect(back.mcpServers.docs?.headers?.Authorization).toBe('Bearer ${DOCS_TOKEN}');
    },
  );

  it('Codex and Goose pass variables by name: env_vars / env_keys, with a warning when the names differ', async () => {
    const codex = await exportConfig({
      to: 'codex',
      servers: { github },
      path: join(temp.path, 'c.toml'),
      home,
      cwd,
      env: {},
    });
    const toml = await readFile(codex.file, 'utf8');
    expect(toml).toContain('env_vars = [ "GITHUB_PERSONAL_ACCESS_TOKEN" ]');
    expect(toml).toContain('LOG_LEVEL = "info"');
    expect(codex.warnings.join('\n')).toContain('set GITHUB_PERSONAL_ACCESS_TOKEN');
    const goose = await exportConfig({
      to: 'goose',
      servers: { github },
      path: join(temp.path, 'g.yaml'),
      home,
      cwd,
      env: {},
    });
    const yaml = await readFile(goose.file, 'utf8');
    expect(yaml).toMatch(/env_keys:\n\s+- GITHUB_PERSONAL_ACCESS_TOKEN/);
    expect(goose.warnings.join('\n')).toContain('set GITHUB_PERSONAL_ACCESS_TOKEN');
  });

  it('hosts without references leave out a server that needs one, and write a literal secret with a warning', async () => {
    const result = await exportConfig({
      to: 'claude-desktop',
      servers: { github, local: { command: 'node', args: ['s.js'], env: { API_KEY: 'literal-key-456' } } },
      path: join(temp.path, 'claude_desktop_config.json'),
      home,
      cwd,
      env: {},
    });
    expect(result.skipped).toEqual(['github']);
    expect(result.warnings.join('\n')).toMatch(
      /"github".*not exported.*\$\{GITHUB_TOKEN\}.*install-gateway --to claude-desktop/,
    );
    expect(result.warnings.join('\n')).toContain('written in clear');
    expect(result.diff).not.toContain('literal-key-456');
    expect(JSON.parse(await readFile(result.file, 'utf8')).mcpServers).toEqual({
      local: { command: 'node', args: ['s.js'], env: { API_KEY: 'literal-key-456' } },
    });
  });

  it('nothing the host can take: no file is created', async () => {
    const path = join(temp.path, 'zed', 'settings.json');
    const result = await exportConfig({ to: 'zed', servers: { github }, path, home, cwd, env: {} });
    expect(result.skipped).toEqual(['github']);
    expect(result.changed).toBe(false);
    expect(result.written).toBe(false);
    await expect(readFile(path, 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('a key the host has no room for is named in a warning', async () => {
    const result = await exportConfig({
      to: 'cursor',
      servers: { filtered: { command: 'node', includeTools: ['read_*'], prefix: 'fs' } },
      path: join(temp.path, 'mcp.json'),
      home,
      cwd,
      env: {},
    });
    expect(result.warnings).toEqual([
      'Server "filtered" → Cursor: "includeTools" is not written: Cursor has no equivalent.',
      'Server "filtered" → Cursor: "prefix" is not written: Cursor has no equivalent.',
    ]);
  });
});

describe('exportConfig: dry runs, backups, replace', () => {
  it('a dry run writes nothing; a write leaves a backup; a file changed meanwhile is not overwritten', async () => {
    const path = temp.write('home/.cursor/mcp.json', '{\n  // mine\n  "mcpServers": {}\n}\n');
    const dry = await exportConfig({ to: 'cursor', servers: { github }, home, cwd, env: {}, dryRun: true });
    expect(dry.file).toBe(path);
    expect(dry.written).toBe(false);
    expect(dry.diff).toContain('+    "github": {');
    expect(await readFile(path, 'utf8')).toBe('{\n  // mine\n  "mcpServers": {}\n}\n');
    expect((await readdir(join(home, '.cursor'))).sort()).toEqual(['mcp.json']);

    const plan = await planExport({ to: 'cursor', servers: { github }, home, cwd, env: {} });
    await writeFile(path, '{\n  // edited meanwhile\n  "mcpServers": {}\n}\n');
    const error = await failure(applyExportPlan(plan));
    expect(error.code).toBe('CONFIG_CHANGED_MEANWHILE');
    expect(await readFile(path, 'utf8')).toContain('edited meanwhile');

    const written = await exportConfig({ to: 'cursor', servers: { github }, home, cwd, env: {} });
    expect(written.written).toBe(true);
    expect(await readFile(written.backup as string, 'utf8')).toContain('edited meanwhile');
    expect(await readFile(path, 'utf8')).toContain('// edited meanwhile');
    // Nothing changes the second time: no write, no second backup.
    const again = await exportConfig({ to: 'cursor', servers: { github }, home, cwd, env: {} });
    expect(again.changed).toBe(false);
    expect(again.written).toBe(false);
    expect((await readdir(join(home, '.cursor'))).length).toBe(2);
  });

  it('replace mode leaves only the given servers, and says which it removed', async () => {
    const path = temp.write(
      'codex.toml',
      '# keep me\nmodel = "x"\n\n# the old one\n[mcp_servers.old]\ncommand = "old"\n\n[mcp_servers.old.env]\nA = "1"\n\n[profiles.p]\nmodel = "y"\n',
    );
    const result = await exportConfig({
      to: 'codex',
      servers: { github },
      path,
      mode: 'replace',
      home,
      cwd,
      env: {},
    });
    expect(result.removed).toEqual(['old']);
    const text = await readFile(path, 'utf8');
    expect(text).toContain('# keep me\nmodel = "x"\n');
    expect(text).not.toContain('# the old one');
    expect(text).not.toContain('[mcp_servers.old');
    expect(text).toContain('[profiles.p]\nmodel = "y"\n');
    const back = await importConfig({ from: 'codex', path, home, cwd, env: {} });
    expect(Object.keys(back.mcpServers)).toEqual(['github']);
  });
});

describe('bad host files: errors name file, line and key', () => {
  it('JSON: a syntax error has line and column; a wrong-typed value is skipped with its line and key', async () => {
    const broken = temp.write(
      'zed.json',
      '{\n  "context_servers": {\n    "a": { "command": "x" }\n    "b": {}\n}',
    );
    const error = await failure(importConfig({ from: 'zed', path: broken, home, cwd }));
    expect(error.code).toBe('CONFIG_INVALID_JSON');
    expect(error.message).toContain(`${broken}:4:5`);

    const wrong = temp.write(
      'windsurf.json',
      '{\n  "mcpServers": {\n    "w": {\n      "serverUrl": 42\n    }\n  }\n}\n',
    );
    const imported = await importConfig({ from: 'windsurf', path: wrong, home, cwd });
    expect(imported.warnings.join('\n')).toContain(`mcpServers.w.serverUrl (${wrong}:4:20)`);
  });

  it('TOML: a wrong-typed servers table is an error with line and key', async () => {
    const file = temp.write('config.toml', 'model = "x"\nmcp_servers = "none"\n');
    const error = await failure(importConfig({ from: 'codex', path: file, home, cwd }));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain(`mcp_servers (${file}:2:1)`);
  });

  it('YAML: a syntax error has line and column; wrong types name their line and key', async () => {
    const broken = temp.write('goose.yaml', 'extensions:\n  github:\n    cmd: npx\n   args: [x\n');
    const error = await failure(importConfig({ from: 'goose', path: broken, home, cwd }));
    expect(error.code).toBe('CONFIG_INVALID_YAML');
    expect(error.message).toMatch(new RegExp(`${broken.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+`));

    const wrong = temp.write(
      'goose2.yaml',
      '# mine\nextensions:\n  github:\n    cmd: npx\n    args: "-y server"\n    type: stdio\n',
    );
    const imported = await importConfig({ from: 'goose', path: wrong, home, cwd });
    expect(imported.mcpServers).toEqual({});
    expect(imported.warnings.join('\n')).toContain(
      `extensions.github.args (${wrong}:5:11): expected an array of strings`,
    );

    const list = temp.write(
      'continue.yaml',
      'name: c\nversion: 0.0.1\nschema: v1\nmcpServers:\n  sqlite:\n    command: npx\n',
    );
    const notList = await failure(importConfig({ from: 'continue', path: list, home, cwd }));
    expect(notList.code).toBe('CONFIG_INVALID');
    expect(notList.message).toContain(`mcpServers (${list}:5:3): expected a list of servers`);
  });

  it('export refuses to edit a file whose servers have the wrong type, naming file and line', async () => {
    const file = temp.write('mcp.json', '{\n  "mcpServers": []\n}\n');
    const error = await failure(
      exportConfig({ to: 'cursor', servers: { github }, path: file, home, cwd, env: {} }),
    );
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain(`mcpServers (${file}:2:17)`);
    expect(await readFile(file, 'utf8')).toBe('{\n  "mcpServers": []\n}\n');
  });
});
