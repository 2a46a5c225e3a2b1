// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text holds ${VAR} references on purpose
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createTemporaryDirectory, serverScript, type TemporaryDirectory } from '@switchboard/test-helpers';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { connectMcp, type McpConnection } from '../../src/index.js';

describe('a loaded config drives connectMcp', () => {
  let temp: TemporaryDirectory | undefined;
  let connection: McpConnection | undefined;
  afterEach(async () => {
    await connection?.close();
    temp?.remove();
  });

  it('connects the servers of a project config file, with variables expanded into the server env', async () => {
    temp = createTemporaryDirectory('switchboard-config-');
    const file = join(temp.path, '.switchboard', 'mcp.json');
    const mcpServers = {
      everything: {
        command: '${NODE_BINARY}',
        args: ['${EVERYTHING_SCRIPT}', 'stdio'],
        env: { SWITCHBOARD_CONFIG_PROBE: '${PROBE_VALUE:-from-default}' },
        timeouts: { connectMs: 60_000 },
      },
      // Disabled, and its variable is unset: neither stops the rest.
      later: { command: 'does-not-exist', env: { TOKEN: '${UNSET_TOKEN}' }, enabled: false },
    };
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify({ mcpServers }, null, 2));

    const config = await loadConfig({
      cwd: temp.path,
      home: join(temp.path, 'home'),
      env: { NODE_BINARY: process.execPath, EVERYTHING_SCRIPT: serverScript('server-everything') },
    });
    expect(config.mcpServers.later?.enabled).toBe(false);
    connection = await connectMcp(config, { approval: 'never' });
    expect(Object.keys(connection.status())).toEqual(['everything']);
    const result = await connection.callTool('mcp__everything__get-env', {});
    expect(JSON.stringify(result)).toContain('from-default');
  });
});
