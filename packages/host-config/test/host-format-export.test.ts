// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text holds ${VAR} references on purpose
/**
 * Export into every host's format, from a fixture in that host's documented format (test-helpers'
 * `fixtures/hosts/<host>/…`, which the client's import tests read too): round trips (import → export
 * into a new file → import gives the same servers), and export into the fixture itself keeps its
 * comments and unrelated content, with a backup of what was there.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type HostId, importConfig, type ServerConfig } from '@switchboard/client';
import {
  copyHostConfigFixture,
  createTemporaryDirectory,
  type TemporaryDirectory,
} from '@switchboard/test-helpers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportConfig } from '../src/export-config.js';

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

interface ExportCase {
  host: HostId;
  /** The fixture file, relative to the host's fixture folder. */
  file: string;
  /** A line of the fixture export must leave as it is (a comment, or unrelated content). */
  keeps: string;
  /** VS Code inputs for the import. */
  inputs?: Record<string, string>;
}

const cases: ExportCase[] = [
  { host: 'claude-desktop', file: 'claude_desktop_config.json', keeps: '"globalShortcut": "Ctrl+Space"' },
  { host: 'claude-code', file: '.mcp.json', keeps: '"clientId": "sentry-cli"' },
  { host: 'cursor', file: '.cursor/mcp.json', keeps: '"url": "https://mcp.linear.app/mcp"' },
  {
    host: 'vscode',
    file: '.vscode/mcp.json',
    keeps: '// Shared with the team: secrets come from inputs or the environment, never from this file.',
    inputs: { 'perplexity-key': '${PERPLEXITY_API_KEY}' },
  },
  { host: 'vscode', file: 'User/settings.json', keeps: '"editor.fontSize": 14' },
  { host: 'windsurf', file: 'mcp_config.json', keeps: '"disabledTools": ["delete_repository"]' },
  { host: 'zed', file: 'settings.json', keeps: '// The object form older Zed versions wrote.' },
  { host: 'gemini-cli', file: '.gemini/settings.json', keeps: '"theme": "GitHub"' },
  { host: 'cline', file: 'cline_mcp_settings.json', keeps: '"autoApprove": ["get_forecast"]' },
  {
    host: 'codex',
    file: 'config.toml',
    keeps: '# A local docs server; its API key comes from the environment.',
  },
  { host: 'continue', file: 'config.yaml', keeps: '# MCP servers Continue starts in agent mode' },
  { host: 'goose', file: 'config.yaml', keeps: '# Goose configuration (goose configure writes this file)' },
];

const added: ServerConfig = { command: 'node', args: ['added-server.js'] };

describe.each(cases)('$host ($file)', ({ host, file, keeps, inputs }) => {
  const options = () => ({ home, cwd: join(temp.path, 'elsewhere'), env: {}, ...(inputs ? { inputs } : {}) });

  it('round trips: import → export to a new file → import gives the same servers', async () => {
    const folder = await fixture(host);
    const first = await importConfig({ from: host, path: join(folder, file), ...options() });
    const target = join(temp.path, 'exported', file.split('/').pop() as string);
    const exported = await exportConfig({ to: host, servers: first.mcpServers, path: target, ...options() });
    expect(exported.skipped).toEqual([]);
    expect(exported.written).toBe(true);
    const second = await importConfig({ from: host, path: target, ...options() });
    expect(second.mcpServers).toEqual(first.mcpServers);
  });

  it('exports into the file itself, keeping its comments and unrelated content', async () => {
    const folder = await fixture(host);
    const path = join(folder, file);
    const before = await readFile(path, 'utf8');
    const first = await importConfig({ from: host, path, ...options() });
    const result = await exportConfig({
      to: host,
      servers: { ...first.mcpServers, added },
      path,
      ...options(),
    });
    const after = await readFile(path, 'utf8');
    expect(after).toContain(keeps);
    expect(before).toContain(keeps);
    expect(result.diff).toContain('added-server.js');
    expect(result.backup).toMatch(/\.bak-\d{8}T\d{6}Z$/);
    expect(await readFile(result.backup as string, 'utf8')).toBe(before);
    const second = await importConfig({ from: host, path, ...options() });
    expect(second.mcpServers).toMatchObject({
      ...first.mcpServers,
      added: { command: 'node', args: ['added-server.js'] },
    });
  });
});
