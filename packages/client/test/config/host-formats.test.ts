// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text holds ${VAR} references on purpose
/**
 * Every host's format, from a fixture in that host's documented format (test-helpers'
 * `fixtures/hosts/<host>/…`): import with the mapped fields, and the Windows and macOS locations of
 * each host found. (Export into these files, and round trips, are @switchboard/host-config's tests.)
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  copyHostConfigFixture,
  createTemporaryDirectory,
  hostConfigFixtures,
  type TemporaryDirectory,
} from '@switchboard/test-helpers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HostId } from '../../src/config/hosts/host-format.js';
import { importConfig } from '../../src/config/import-config.js';
import type { ServerConfig } from '../../src/config/server-config.js';

const fixtures = hostConfigFixtures();

let temp: TemporaryDirectory;
let home: string;

beforeEach(async () => {
  temp = createTemporaryDirectory('switchboard-config-');
  home = join(temp.path, 'home');
});

afterEach(async () => {
  temp.remove();
});

/** Copies a host's fixture folder into the temp folder; returns the copy's path. */
const fixture = (host: string) => copyHostConfigFixture(host, temp.path);

interface HostCase {
  host: HostId;
  /** The fixture file, relative to the host's fixture folder. */
  file: string;
  /** What import must give (toMatchObject). */
  servers: (folder: string) => Record<string, ServerConfig>;
  /** Warnings import must give (each a substring of one warning). */
  warnings?: string[];
  /** VS Code inputs for the import. */
  inputs?: Record<string, string>;
}

const cases: HostCase[] = [
  {
    host: 'claude-desktop',
    file: 'claude_desktop_config.json',
    servers: () => ({
      filesystem: {
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/me/Desktop', '/Users/me/Downloads'],
      },
      sqlite: { command: 'uvx', env: { LOG_LEVEL: 'debug' } },
    }),
  },
  {
    host: 'claude-code',
    file: '.mcp.json',
    servers: () => ({
      sentry: {
        type: 'http',
        url: 'https://mcp.sentry.dev/mcp',
        auth: { clientId: 'sentry-cli', redirectPort: 8080, scopes: ['org:read', 'project:read'] },
        hostKeys: {
          'claude-code': {
            oauth: {
              authServerMetadataUrl: 'https://auth.sentry.example/.well-known/oauth-authorization-server',
            },
          },
        },
      },
      internal: {
        type: 'http',
        url: '${INTERNAL_URL:-https://mcp.internal.example}/mcp',
        headersHelper: '/opt/bin/mint-token --audience mcp',
      },
      db: { type: 'stdio', env: { DSN: '${DATABASE_URL}' }, timeouts: { callMs: 120000 } },
    }),
    warnings: ['mcpServers.sentry.oauth ('],
  },
  {
    host: 'cursor',
    file: '.cursor/mcp.json',
    servers: (folder) => ({
      notes: { command: 'node', args: [`${home}/tools/notes.js`], envFile: `${folder}/.env` },
      linear: { url: 'https://mcp.linear.app/mcp', headers: { Authorization: 'Bearer ${LINEAR_API_KEY}' } },
    }),
  },
  {
    host: 'vscode',
    file: '.vscode/mcp.json',
    inputs: { 'perplexity-key': '${PERPLEXITY_API_KEY}' },
    servers: (folder) => ({
      perplexity: {
        type: 'stdio',
        env: { PERPLEXITY_API_KEY: '${PERPLEXITY_API_KEY}' },
        envFile: `${folder}/.env`,
      },
      'my-server': {
        cwd: folder,
        hostKeys: { vscode: { dev: { watch: 'build/**/*.js', debug: { type: 'node' } } } },
      },
      github: { type: 'http', headers: { Authorization: 'Bearer ${GITHUB_TOKEN}' } },
    }),
    warnings: ['servers.my-server.dev ('],
  },
  {
    host: 'vscode',
    file: 'User/settings.json',
    servers: () => ({ time: { type: 'stdio', command: 'uvx' } }),
  },
  {
    host: 'windsurf',
    file: 'mcp_config.json',
    servers: () => ({
      github: {
        env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${GITHUB_TOKEN}' },
        excludeTools: ['delete_repository'],
      },
      figma: {
        url: 'https://mcp.figma.com/mcp',
        headers: { Authorization: 'Bearer ${FIGMA_TOKEN}' },
        enabled: false,
      },
    }),
  },
  {
    host: 'zed',
    file: 'settings.json',
    servers: () => ({
      postgres: {
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-postgres', 'postgresql://localhost/mydb'],
        hostKeys: { zed: { source: 'custom', settings: {} } },
      },
      everything: { command: 'npx', env: { LOG: '1' } },
      remote: { url: 'https://mcp.example.com/mcp' },
    }),
    warnings: ['context_servers.postgres.settings ('],
  },
  {
    host: 'gemini-cli',
    file: '.gemini/settings.json',
    servers: () => ({
      pythonTools: {
        cwd: './mcp-servers/python',
        env: { DATABASE_URL: '${DB_CONNECTION_STRING}', API_KEY: '${EXTERNAL_API_KEY}' },
        timeouts: { callMs: 15000 },
        includeTools: ['safe_tool', 'file_reader'],
      },
      httpServer: {
        type: 'http',
        url: 'http://localhost:3000/mcp',
        approval: 'never',
        excludeTools: ['dangerous_tool'],
        timeouts: { callMs: 5000 },
      },
      sseServer: { type: 'sse', url: 'http://localhost:8080/sse' },
    }),
  },
  {
    host: 'cline',
    file: 'cline_mcp_settings.json',
    servers: () => ({
      weather: {
        approval: { allow: ['get_forecast'] },
        timeouts: { callMs: 60_000 },
        env: { UNITS: 'metric' },
      },
      remote: { type: 'http', enabled: false },
    }),
  },
  {
    host: 'codex',
    file: 'config.toml',
    servers: () => ({
      docs: {
        command: 'npx',
        env: { LOG_LEVEL: 'info', DOCS_API_KEY: '${DOCS_API_KEY}' },
        timeouts: { connectMs: 20_000, callMs: 90_000 },
        includeTools: ['search', 'fetch_*'],
      },
      figma: {
        type: 'http',
        url: 'https://mcp.figma.com/mcp',
        headers: {
          'X-Figma-Region': 'us-east-1',
          'X-Team': '${FIGMA_TEAM}',
          Authorization: 'Bearer ${FIGMA_OAUTH_TOKEN}',
        },
        excludeTools: ['delete_file'],
        enabled: false,
      },
    }),
  },
  {
    host: 'continue',
    file: 'config.yaml',
    servers: () => ({
      'SQLite MCP': { command: 'npx', args: ['-y', 'mcp-sqlite', '/path/to/your/database.db'] },
      Docs: {
        type: 'http',
        url: 'https://docs.example.com/mcp',
        headers: { Authorization: 'Bearer ${DOCS_TOKEN}' },
        hostKeys: { continue: { requestOptions: { timeout: 30 } } },
      },
    }),
    warnings: ['mcpServers[1].requestOptions ('],
  },
  {
    host: 'goose',
    file: 'config.yaml',
    servers: () => ({
      github: {
        type: 'stdio',
        command: 'npx',
        env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${GITHUB_PERSONAL_ACCESS_TOKEN}' },
        timeouts: { callMs: 300_000 },
        enabled: true,
        description: 'GitHub repositories, issues and pull requests',
        hostKeys: { goose: { name: 'GitHub' } },
      },
      remote: {
        type: 'http',
        url: 'https://mcp.example.com/mcp',
        enabled: false,
        timeouts: { callMs: 60_000 },
      },
    }),
    warnings: ['Skipped server "developer"', 'builtin extension'],
  },
];

describe.each(cases)('$host ($file)', ({ host, file, servers, warnings = [], inputs }) => {
  const options = () => ({ home, cwd: join(temp.path, 'elsewhere'), env: {}, ...(inputs ? { inputs } : {}) });

  it('imports its servers with the host keys mapped, reporting kept keys with file and line', async () => {
    const folder = await fixture(host);
    const path = join(folder, file);
    const imported = await importConfig({ from: host, path, ...options() });
    const expected = servers(folder);
    expect(Object.keys(imported.mcpServers).sort()).toEqual(Object.keys(expected).sort());
    expect(imported.mcpServers).toMatchObject(expected);
    for (const warning of warnings) {
      expect(imported.warnings.join('\n')).toContain(warning);
      if (warning.endsWith(' ('))
        expect(imported.warnings.join('\n')).toMatch(
          new RegExp(`${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+`),
        );
    }
    if (warnings.length === 0) expect(imported.warnings).toEqual([]);
  });
});

describe('Windows and macOS locations', () => {
  const windowsCases: [HostId, string, string][] = [
    [
      'claude-desktop',
      'Roaming/Claude/claude_desktop_config.json',
      'claude-desktop/claude_desktop_config.json',
    ],
    ['claude-code', 'Users/me/.claude.json', 'claude-code/.mcp.json'],
    ['cursor', 'Users/me/.cursor/mcp.json', 'cursor/.cursor/mcp.json'],
    ['vscode', 'Roaming/Code/User/mcp.json', 'vscode/.vscode/mcp.json'],
    ['windsurf', 'Users/me/.codeium/windsurf/mcp_config.json', 'windsurf/mcp_config.json'],
    ['zed', 'Roaming/Zed/settings.json', 'zed/settings.json'],
    ['gemini-cli', 'Users/me/.gemini/settings.json', 'gemini-cli/.gemini/settings.json'],
    [
      'cline',
      'Roaming/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json',
      'cline/cline_mcp_settings.json',
    ],
    ['codex', 'Users/me/.codex/config.toml', 'codex/config.toml'],
    ['continue', 'Users/me/.continue/config.yaml', 'continue/config.yaml'],
    ['goose', 'Roaming/Block/goose/config/config.yaml', 'goose/config.yaml'],
  ];

  it.each(windowsCases)(
    '%s: reads its file under APPDATA or USERPROFILE on win32',
    async (host, relative, source) => {
      const text = await readFile(join(fixtures, source), 'utf8');
      const file = temp.write(join('C', relative), text);
      const env = {
        APPDATA: join(temp.path, 'C', 'Roaming'),
        USERPROFILE: join(temp.path, 'C', 'Users', 'me'),
      };
      const imported = await importConfig({
        from: host,
        home: join(temp.path, 'unused-home'),
        cwd: join(temp.path, 'C', 'work'),
        platform: 'win32',
        env,
        inputs: { 'perplexity-key': '${PERPLEXITY_API_KEY}' },
      });
      expect(imported.sources.map((source) => source.path)).toContain(file);
      expect(Object.keys(imported.mcpServers).length).toBeGreaterThan(0);
    },
  );

  it.each([
    ['vscode', 'Library/Application Support/Code/User/mcp.json', 'vscode/.vscode/mcp.json'],
    ['zed', '.config/zed/settings.json', 'zed/settings.json'],
    ['goose', '.config/goose/config.yaml', 'goose/config.yaml'],
  ] as const)('%s: reads the macOS location', async (host, relative, source) => {
    const file = temp.write(join('home', relative), await readFile(join(fixtures, source), 'utf8'));
    const imported = await importConfig({
      from: host,
      home,
      cwd: join(temp.path, 'work'),
      platform: 'darwin',
      env: {},
      inputs: { 'perplexity-key': '${PERPLEXITY_API_KEY}' },
    });
    expect(imported.sources.map((source) => source.path)).toContain(file);
  });

  it('vscode merges user settings.json, user mcp.json and the workspace mcp.json; continue reads the block files', async () => {
    const cwd = join(temp.path, 'work');
    temp.write(
      'home/.config/Code/User/settings.json',
      await readFile(join(fixtures, 'vscode/User/settings.json'), 'utf8'),
    );
    temp.write('work/.vscode/mcp.json', await readFile(join(fixtures, 'vscode/.vscode/mcp.json'), 'utf8'));
    const vscode = await importConfig({
      from: 'vscode',
      home,
      cwd,
      platform: 'linux',
      env: {},
      inputs: { 'perplexity-key': '${PERPLEXITY_API_KEY}' },
    });
    expect(Object.keys(vscode.mcpServers)).toEqual(['time', 'perplexity', 'my-server', 'github']);
    expect(vscode.serverSources.time?.kind).toBe('user');
    expect(vscode.serverSources.github?.kind).toBe('project');

    temp.write('home/.continue/config.yaml', await readFile(join(fixtures, 'continue/config.yaml'), 'utf8'));
    const block = temp.write(
      'work/.continue/mcpServers/playwright-mcp.yaml',
      await readFile(join(fixtures, 'continue/.continue/mcpServers/playwright-mcp.yaml'), 'utf8'),
    );
    const continued = await importConfig({ from: 'continue', home, cwd, platform: 'linux', env: {} });
    expect(continued.mcpServers['Browser search']).toEqual({
      command: 'npx',
      args: ['@playwright/mcp@latest'],
    });
    expect(continued.serverSources['Browser search']).toEqual({ path: block, kind: 'project' });
  });
});
