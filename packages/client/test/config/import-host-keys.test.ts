// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text holds ${VAR} references on purpose
/**
 * The hosts' own keys for tool filtering, timeouts and auto-approval survive an import:
 * Gemini CLI (includeTools/excludeTools, httpUrl, trust, timeout), Cline (autoApprove, timeout in
 * seconds, disabled) and Claude Code (timeout). Fixtures are in each host's documented format.
 */
import { join } from 'node:path';
import { createTemporaryDirectory, serverScript, type TemporaryDirectory } from '@switchboard/test-helpers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clineSettingsPath, importConfig } from '../../src/config/import-config.js';
import { connectMcp } from '../../src/index.js';

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

describe('importing hosts’ tool, timeout and approval keys', () => {
  it('Gemini CLI: user then project settings, includeTools/excludeTools kept, httpUrl, trust and timeout mapped', async () => {
    temp.write(
      'home/.gemini/settings.json',
      JSON.stringify({
        theme: 'GitHub',
        mcpServers: {
          everything: {
            command: process.execPath,
            args: [serverScript('server-everything'), 'stdio'],
            includeTools: ['echo', 'get-*'],
            excludeTools: ['get-env'],
            timeout: 15000,
            trust: true,
          },
          remote: { url: 'http://127.0.0.1:9/sse' },
        },
      }),
    );
    temp.write(
      'projects/shop/.gemini/settings.json',
      JSON.stringify({
        mcpServers: { remote: { httpUrl: 'http://127.0.0.1:9/mcp', headers: { 'X-Team': 'shop' } } },
      }),
    );
    const imported = await importConfig({ from: 'gemini-cli', home, cwd });
    expect(imported.sources.map((source) => source.kind)).toEqual(['user', 'project']);
    expect(imported.mcpServers.everything).toMatchObject({
      includeTools: ['echo', 'get-*'],
      excludeTools: ['get-env'],
      timeouts: { callMs: 15000 },
      approval: 'never',
    });
    // The project's entry wins, and its httpUrl is Streamable HTTP.
    expect(imported.mcpServers.remote).toEqual({
      type: 'http',
      url: 'http://127.0.0.1:9/mcp',
      headers: { 'X-Team': 'shop' },
    });
    expect(imported.warnings).toEqual([]);

    // The filter works end to end: the hidden tools never reach the registry.
    const connection = await connectMcp({ everything: imported.mcpServers.everything ?? {} });
    try {
      const names = connection.registry.list().map((tool) => tool.originalName);
      expect(names).toContain('echo');
      expect(names).not.toContain('get-env');
      expect(names).not.toContain('trigger-long-running-operation');
    } finally {
      await connection.close();
    }
  });

  it('Gemini CLI: a bare url is legacy SSE', async () => {
    const file = temp.write(
      'g.json',
      JSON.stringify({ mcpServers: { old: { url: 'http://127.0.0.1:9/sse' } } }),
    );
    const imported = await importConfig({ from: 'gemini-cli', path: file, home, cwd });
    expect(imported.mcpServers.old).toEqual({ type: 'sse', url: 'http://127.0.0.1:9/sse' });
  });

  it('Cline: autoApprove becomes approval.allow, timeout seconds become callMs, disabled is kept', async () => {
    const path = clineSettingsPath(home, 'linux', {});
    expect(path).toBe(
      join(
        home,
        '.config',
        'Code',
        'User',
        'globalStorage',
        'saoudrizwan.claude-dev',
        'settings',
        'cline_mcp_settings.json',
      ),
    );
    temp.write(
      path.slice(temp.path.length + 1),
      JSON.stringify({
        mcpServers: {
          memory: {
            command: 'npx',
            args: ['-y', '@modelcontextprotocol/server-memory'],
            autoApprove: ['read_graph', 'search_nodes'],
            timeout: 120,
            disabled: false,
          },
          remote: { url: 'https://example.com/mcp', type: 'streamableHttp', disabled: true, autoApprove: [] },
        },
      }),
    );
    const imported = await importConfig({ from: 'cline', home, cwd, platform: 'linux', env: {} });
    expect(imported.mcpServers.memory).toMatchObject({
      approval: { allow: ['read_graph', 'search_nodes'] },
      timeouts: { callMs: 120_000 },
    });
    expect(imported.mcpServers.memory?.enabled).not.toBe(false);
    expect(imported.mcpServers.remote).toMatchObject({ type: 'http', enabled: false });
    expect(imported.warnings).toEqual([]);
  });

  it('Claude Code: timeout (ms) becomes timeouts.callMs', async () => {
    temp.write(
      'projects/shop/.mcp.json',
      JSON.stringify({ mcpServers: { slow: { command: 'node', args: ['slow.js'], timeout: 300000 } } }),
    );
    const imported = await importConfig({ from: 'claude-code', home, cwd });
    expect(imported.mcpServers.slow?.timeouts).toEqual({ callMs: 300000 });
    expect(imported.warnings).toEqual([]);
  });

  it('a wrong-typed host key is reported with its file and path, not silently dropped', async () => {
    const file = temp.write(
      'gemini.json',
      JSON.stringify({ mcpServers: { bad: { command: 'node', includeTools: 'echo' } } }),
    );
    const imported = await importConfig({ from: 'gemini-cli', path: file, home, cwd });
    expect(imported.mcpServers.bad).toBeUndefined();
    expect(imported.warnings.join('\n')).toMatch(
      /Skipped server "bad".*mcpServers\.bad\.includeTools.*array of tool names/,
    );
  });

  it('Codex: config.toml [mcp_servers.NAME] tables, enabled_tools/disabled_tools, timeouts in seconds, env headers kept as references', async () => {
    temp.write(
      'home/.codex/config.toml',
      [
        '# Codex config (https://github.com/openai/codex/blob/main/docs/config.md)',
        'model = "gpt-5-codex"',
        '',
        '[mcp_servers.everything]',
        `command = ${JSON.stringify(process.execPath)}`,
        `args = [${JSON.stringify(serverScript('server-everything'))}, "stdio"]`,
        'enabled_tools = ["echo", "get-*"]',
        'disabled_tools = ["get-env"]',
        'startup_timeout_sec = 20',
        'tool_timeout_sec = 90',
        '',
        '[mcp_servers.everything.env]',
        'LOG_LEVEL = "info"',
        '',
        '[mcp_servers.docs]',
        'url = "https://mcp.example.com/mcp"',
        'bearer_token_env_var = "DOCS_TOKEN"',
        'env_http_headers = { "X-Team" = "TEAM_ID" }',
        'enabled = false',
      ].join('\n'),
    );
    const imported = await importConfig({ from: 'codex', home, cwd, env: {} });
    expect(imported.mcpServers.everything).toMatchObject({
      includeTools: ['echo', 'get-*'],
      excludeTools: ['get-env'],
      timeouts: { connectMs: 20_000, callMs: 90_000 },
      env: { LOG_LEVEL: 'info' },
    });
    expect(imported.mcpServers.docs).toEqual({
      type: 'http',
      url: 'https://mcp.example.com/mcp',
      headers: { 'X-Team': '${TEAM_ID}', Authorization: 'Bearer ${DOCS_TOKEN}' },
      enabled: false,
    });
    expect(imported.warnings).toEqual([]);

    const connection = await connectMcp({ everything: imported.mcpServers.everything ?? {} });
    try {
      const names = connection.registry.list().map((tool) => tool.originalName);
      expect(names).toContain('get-sum');
      expect(names).not.toContain('get-env');
      expect(names).not.toContain('echo-not-there');
      expect(names.every((name) => name === 'echo' || name.startsWith('get-'))).toBe(true);
    } finally {
      await connection.close();
    }
  });

  it('Codex: a TOML syntax error names file, line and column; a bad value names its line and key', async () => {
    const broken = temp.write('broken.toml', '[mcp_servers.a]\ncommand = "node"\nargs = ["x",\n');
    const error = await importConfig({ from: 'codex', path: broken, home, cwd }).then(
      () => undefined,
      (caught: unknown) => caught as { code?: string; message: string },
    );
    expect(error?.code).toBe('CONFIG_INVALID_TOML');
    expect(error?.message).toMatch(/broken\.toml:\d+:\d+/);

    const bad = temp.write(
      'bad.toml',
      '[mcp_servers.good]\ncommand = "node"\n\n[mcp_servers.bad]\ncommand = "node"\nenabled_tools = "echo"\n',
    );
    const imported = await importConfig({ from: 'codex', path: bad, home, cwd });
    expect(Object.keys(imported.mcpServers)).toEqual(['good']);
    expect(imported.warnings.join('\n')).toMatch(
      /Skipped server "bad".*mcp_servers\.bad\.enabled_tools \(.*bad\.toml:6:1\)/,
    );
  });
});
