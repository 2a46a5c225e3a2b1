// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text holds ${VAR} references on purpose
import { join } from 'node:path';
import { SwitchboardError } from '@switchboard/core';
import { createTemporaryDirectory, type TemporaryDirectory } from '@switchboard/test-helpers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeDesktopConfigPath, importConfig } from '../../src/config/import-config.js';

let temp: TemporaryDirectory;
let home: string;
let cwd: string;

beforeEach(async () => {
  temp = createTemporaryDirectory('switchboard-config-');
  home = join(temp.path, 'home');
  cwd = join(temp.path, 'projects', 'shop');
});

afterEach(async () => {
  temp.remove();
});

async function importError(promise: Promise<unknown>): Promise<SwitchboardError> {
  try {
    await promise;
  } catch (error) {
    if (SwitchboardError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected importConfig to fail');
}

const claudeDesktopSample = `{
  "mcpServers": {
    "filesystem": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Desktop", "/Users/me/Downloads"]
    },
    "github": {
      "command": "docker",
      "args": ["run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "ghcr.io/github/github-mcp-server"],
      "env": { "GITHUB_PERSONAL_ACCESS_TOKEN": "\${GITHUB_TOKEN}" }
    }
  },
  "globalShortcut": "Ctrl+Space"
}`;

describe('importConfig claude-desktop', () => {
  it('knows the per-platform locations', () => {
    expect(claudeDesktopConfigPath('/Users/me', 'darwin', {})).toBe(
      '/Users/me/Library/Application Support/Claude/claude_desktop_config.json',
    );
    expect(claudeDesktopConfigPath('/home/me', 'linux', {})).toBe(
      '/home/me/.config/Claude/claude_desktop_config.json',
    );
    expect(claudeDesktopConfigPath('/home/me', 'linux', { XDG_CONFIG_HOME: '/xdg' })).toBe(
      '/xdg/Claude/claude_desktop_config.json',
    );
    expect(claudeDesktopConfigPath('/home/me', 'win32', { APPDATA: '/appdata' })).toContain(
      join('/appdata', 'Claude', 'claude_desktop_config.json'),
    );
  });

  it.each([
    ['darwin', 'home/Library/Application Support/Claude/claude_desktop_config.json', {}],
    ['linux', 'home/.config/Claude/claude_desktop_config.json', {}],
    ['win32', 'roaming/Claude/claude_desktop_config.json', { APPDATA: 'ROAMING' }],
  ] as const)('reads the %s default location', async (platform, relative, env) => {
    const file = temp.write(relative, claudeDesktopSample);
    const resolvedEnv = 'APPDATA' in env ? { APPDATA: join(temp.path, 'roaming') } : {};
    const imported = await importConfig({ from: 'claude-desktop', home, cwd, platform, env: resolvedEnv });
    expect(imported.sources).toEqual([{ path: file, kind: 'user' }]);
    expect(imported.mcpServers).toEqual({
      filesystem: {
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/me/Desktop', '/Users/me/Downloads'],
      },
      github: {
        command: 'docker',
        args: ['run', '-i', '--rm', '-e', 'GITHUB_PERSONAL_ACCESS_TOKEN', 'ghcr.io/github/github-mcp-server'],
        // Kept as a reference: importing never copies a secret out of the environment.
        env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${GITHUB_TOKEN}' },
      },
    });
  });

  it('names the places it looked when nothing is there', async () => {
    const error = await importError(
      importConfig({ from: 'claude-desktop', home, cwd, platform: 'linux', env: {} }),
    );
    expect(error.code).toBe('CONFIG_NOT_FOUND');
    expect(error.message).toContain(join(home, '.config', 'Claude', 'claude_desktop_config.json'));
  });

  it('skips invalid entries with a warning naming file and path, keeping the rest', async () => {
    const file = temp.write(
      'desktop.json',
      '{"mcpServers": {"ok": {"command": "uvx", "args": ["mcp-server-git"]}, "broken": {"args": ["x"]}}}',
    );
    const imported = await importConfig({ from: 'claude-desktop', path: file, home, cwd });
    expect(Object.keys(imported.mcpServers)).toEqual(['ok']);
    expect(imported.warnings).toEqual([expect.stringContaining(`Skipped server "broken" from ${file}`)]);
    expect(imported.warnings[0]).toContain('mcpServers.broken');
  });

  it('reports invalid JSON with line and column', async () => {
    const file = temp.write(
      'desktop.json',
      '{\n  "mcpServers": {\n    "a": {"command": "x"}\n    "b": {}\n}',
    );
    const error = await importError(importConfig({ from: 'claude-desktop', path: file, home, cwd }));
    expect(error.code).toBe('CONFIG_INVALID_JSON');
    expect(error.message).toContain(`${file}:4:5`);
  });
});

describe('importConfig claude-code', () => {
  it('merges ~/.claude.json (user), .mcp.json (project) and the per-project local servers', async () => {
    temp.write(
      'home/.claude.json',
      JSON.stringify({
        numStartups: 12,
        theme: 'dark',
        mcpServers: {
          everywhere: { type: 'stdio', command: 'node', args: ['/opt/tools/server.js'], env: {} },
          overridden: { type: 'stdio', command: 'user-version' },
        },
        projects: {
          [cwd]: {
            allowedTools: [],
            mcpServers: {
              'local-db': { type: 'stdio', command: 'uvx', args: ['mcp-server-sqlite', '--db', 'dev.db'] },
            },
          },
          '/some/other/project': { mcpServers: { elsewhere: { command: 'x' } } },
        },
      }),
    );
    temp.write(
      'projects/shop/.mcp.json',
      `{
  "mcpServers": {
    "sentry": { "type": "http", "url": "https://mcp.sentry.dev/mcp" },
    "api": {
      "type": "sse",
      "url": "\${API_BASE_URL:-https://api.example.com}/sse",
      "headers": { "Authorization": "Bearer \${API_KEY}" }
    },
    "overridden": { "command": "project-version" }
  }
}`,
    );
    const imported = await importConfig({ from: 'claude-code', home, cwd });
    expect(Object.keys(imported.mcpServers).sort()).toEqual([
      'api',
      'everywhere',
      'local-db',
      'overridden',
      'sentry',
    ]);
    expect(imported.mcpServers.overridden).toEqual({ command: 'project-version' });
    expect(imported.mcpServers.sentry).toEqual({ type: 'http', url: 'https://mcp.sentry.dev/mcp' });
    expect(imported.mcpServers.api).toEqual({
      type: 'sse',
      url: '${API_BASE_URL:-https://api.example.com}/sse',
      headers: { Authorization: 'Bearer ${API_KEY}' },
    });
    expect(imported.mcpServers['local-db']?.args).toEqual(['mcp-server-sqlite', '--db', 'dev.db']);
    expect(imported.serverSources['local-db']).toEqual({ path: join(home, '.claude.json'), kind: 'project' });
    expect(imported.sources.map((source) => source.path)).toEqual([
      join(home, '.claude.json'),
      join(cwd, '.mcp.json'),
      join(home, '.claude.json'),
    ]);
  });

  it('finds the per-project servers from a subfolder of the project', async () => {
    temp.write(
      'home/.claude.json',
      JSON.stringify({
        projects: { [cwd]: { mcpServers: { 'local-db': { command: 'uvx', args: ['mcp-server-sqlite'] } } } },
      }),
    );
    const imported = await importConfig({ from: 'claude-code', home, cwd: join(cwd, 'src', 'api') });
    expect(imported.mcpServers).toEqual({ 'local-db': { command: 'uvx', args: ['mcp-server-sqlite'] } });

    // Servers registered for the home folder are not every project's servers.
    temp.write(
      'home/.claude.json',
      JSON.stringify({ projects: { [home]: { mcpServers: { h: { command: 'h' } } } } }),
    );
    const none = await importConfig({ from: 'claude-code', home, cwd: join(home, 'code', 'x') });
    expect(none.mcpServers).toEqual({});
    expect(none.warnings).toEqual([expect.stringContaining('No MCP servers found')]);
  });

  it('reads an explicit .mcp.json path', async () => {
    const file = temp.write(
      'elsewhere/.mcp.json',
      '{"mcpServers": {"a": {"type": "streamable-http", "url": "https://a/mcp"}}}',
    );
    const imported = await importConfig({ from: 'claude-code', path: file, home, cwd });
    expect(imported.mcpServers).toEqual({ a: { type: 'http', url: 'https://a/mcp' } });
  });
});

describe('importConfig cursor', () => {
  it('merges ~/.cursor/mcp.json and the project .cursor/mcp.json, resolving editor placeholders', async () => {
    temp.write(
      'home/.cursor/mcp.json',
      JSON.stringify({
        mcpServers: {
          notes: { command: 'node', args: ['${userHome}/tools/notes.js'] },
          shared: { command: 'global' },
        },
      }),
    );
    temp.write(
      'projects/shop/.cursor/mcp.json',
      JSON.stringify({
        mcpServers: {
          shared: {
            command: 'npx',
            args: ['-y', 'mcp-server', '${workspaceFolder}'],
            env: { KEY: '${env:SHOP_KEY}' },
          },
          remote: { url: 'https://remote.example/sse', headers: { 'X-Api-Key': '${env:REMOTE_KEY}' } },
        },
      }),
    );
    const imported = await importConfig({ from: 'cursor', home, cwd });
    expect(imported.mcpServers).toEqual({
      notes: { command: 'node', args: [`${home}/tools/notes.js`] },
      // Cursor's ${env:VAR} becomes Switchboard's one spelling, ${VAR} (still a reference).
      shared: { command: 'npx', args: ['-y', 'mcp-server', cwd], env: { KEY: '${SHOP_KEY}' } },
      remote: { url: 'https://remote.example/sse', headers: { 'X-Api-Key': '${REMOTE_KEY}' } },
    });
    expect(imported.serverSources.shared?.kind).toBe('project');
  });
});

describe('importConfig vscode', () => {
  const vscodeSample = `{
  // VS Code MCP servers
  "inputs": [
    { "type": "promptString", "id": "github-token", "description": "GitHub Personal Access Token", "password": true },
    { "type": "promptString", "id": "region", "description": "Region", "default": "eu-west-1" }
  ],
  "servers": {
    "github": {
      "type": "stdio",
      "command": "docker",
      "args": ["run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "ghcr.io/github/github-mcp-server"],
      "env": { "GITHUB_PERSONAL_ACCESS_TOKEN": "\${input:github-token}", "REGION": "\${input:region}" },
      "envFile": "\${workspaceFolder}/.env"
    },
    "docs": { "type": "http", "url": "https://docs.example.com/mcp" },
    "legacy": { "type": "sse", "url": "https://legacy.example.com/sse" },
  }
}`;

  it('fails clearly on inputs without values, naming ids and descriptions but no values', async () => {
    const file = temp.write('projects/shop/.vscode/mcp.json', vscodeSample);
    const error = await importError(importConfig({ from: 'vscode', home, cwd }));
    expect(error.code).toBe('CONFIG_INPUT_UNRESOLVED');
    expect(error.message).toContain('${input:github-token}');
    expect(error.message).toContain('GitHub Personal Access Token');
    expect(error.message).toContain('servers.github.env.GITHUB_PERSONAL_ACCESS_TOKEN');
    expect(error.message).toContain(file);
    // "region" has a default, so only the token is missing.
    expect(error.context.inputs).toEqual(['github-token']);
  });

  it('resolves inputs from a map, uses defaults, and resolves ${workspaceFolder}', async () => {
    temp.write('projects/shop/.vscode/mcp.json', vscodeSample);
    const imported = await importConfig({
      from: 'vscode',
      home,
      cwd,
      inputs: { 'github-token': '${GITHUB_TOKEN}' },
    });
    expect(imported.mcpServers).toEqual({
      github: {
        type: 'stdio',
        command: 'docker',
        args: ['run', '-i', '--rm', '-e', 'GITHUB_PERSONAL_ACCESS_TOKEN', 'ghcr.io/github/github-mcp-server'],
        env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${GITHUB_TOKEN}', REGION: 'eu-west-1' },
        envFile: `${cwd}/.env`,
      },
      docs: { type: 'http', url: 'https://docs.example.com/mcp' },
      legacy: { type: 'sse', url: 'https://legacy.example.com/sse' },
    });
  });

  it('resolves inputs through a callback given each input once', async () => {
    temp.write('projects/shop/.vscode/mcp.json', vscodeSample);
    const asked: string[] = [];
    const imported = await importConfig({
      from: 'vscode',
      home,
      cwd,
      inputs: async (input) => {
        asked.push(`${input.id}:${input.description}:${input.password === true}`);
        return input.id === 'github-token' ? 'typed-token' : undefined;
      },
    });
    expect(asked).toEqual(['github-token:GitHub Personal Access Token:true', 'region:Region:false']);
    expect(imported.mcpServers.github?.env).toEqual({
      GITHUB_PERSONAL_ACCESS_TOKEN: 'typed-token',
      REGION: 'eu-west-1',
    });
  });

  it('reads the "mcp" section of a settings.json given by path', async () => {
    const file = temp.write(
      'settings.json',
      '{"editor.fontSize": 14, "mcp": {"servers": {"time": {"command": "uvx", "args": ["mcp-server-time"]}}}}',
    );
    const imported = await importConfig({ from: 'vscode', path: file, home, cwd });
    expect(imported.mcpServers).toEqual({ time: { command: 'uvx', args: ['mcp-server-time'] } });
  });

  it('rejects an unknown format', async () => {
    const error = await importError(importConfig({ from: 'emacs' as 'cursor', home, cwd }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toContain('claude-desktop');
  });
});
