/** includeTools / excludeTools: hidden tools never reach the registry, and a relay of one is refused. */
import { SwitchboardError } from '@switchboard/core';
import { everythingStdio } from '@switchboard/test-helpers';
import { afterEach, describe, expect, it } from 'vitest';
import { validateConfigDocument } from '../src/config/validate-server-config.js';
import { ClientErrorCode, connectMcp, type McpConnection } from '../src/index.js';

describe('tool filtering', () => {
  const open: McpConnection[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((connection) => connection.close()));
  });

  it('keeps only includeTools (names and globs) minus excludeTools, in the registry and the connection', async () => {
    const connection = await connectMcp({
      everything: everythingStdio({ includeTools: ['echo', 'get-*'], excludeTools: ['get-env'] }),
    });
    open.push(connection);
    const names = connection.registry.list().map((tool) => tool.originalName);
    expect(names).toContain('echo');
    expect(names).toContain('get-sum');
    expect(names).toContain('get-tiny-image');
    expect(names).not.toContain('get-env');
    expect(names).not.toContain('trigger-long-running-operation');
    expect(names.every((name) => name === 'echo' || name.startsWith('get-'))).toBe(true);
    expect(Object.keys(connection.tools)).toHaveLength(names.length);

    // A relay (what a gateway does) of a hidden tool is refused before it reaches the server.
    const refused = await connection.relayTool('everything', 'get-env', {}).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(SwitchboardError.isInstance(refused) && refused.code).toBe(ClientErrorCode.ToolNotFound);
    expect(String((refused as Error).message)).toMatch(/hidden by its includeTools \/ excludeTools/);
    expect(connection.metrics().servers.everything?.calls ?? 0).toBe(0);

    // A visible one runs.
    const echoed = await connection.relayTool('everything', 'echo', { message: 'kept' });
    expect(JSON.stringify(echoed.content)).toContain('kept');
  });

  it('applies the connection-wide toolFilter on top of each entry', async () => {
    const seen: string[] = [];
    const connection = await connectMcp(
      { everything: everythingStdio({ excludeTools: ['echo'] }) },
      {
        toolFilter: ({ server, name }) => {
          seen.push(`${server}/${name}`);
          return name !== 'get-sum';
        },
      },
    );
    open.push(connection);
    const names = connection.registry.list().map((tool) => tool.originalName);
    expect(names).not.toContain('echo');
    expect(names).not.toContain('get-sum');
    expect(names).toContain('get-tiny-image');
    expect(seen).toContain('everything/get-sum');
    // The entry's own exclusion is decided first: the connection's filter never saw `echo`.
    expect(seen).not.toContain('everything/echo');
  });

  it('rejects a malformed includeTools in config with the path and what to write', () => {
    const issues: Array<{ path: unknown[]; message: string }> = [];
    const result = validateConfigDocument(
      {
        mcpServers: {
          a: { command: 'node', includeTools: 'echo' },
          b: { command: 'node', excludeTools: ['x*'] },
        },
      },
      { issue: (path, message) => issues.push({ path, message }), warn: () => {} },
      'mcpServers',
    );
    expect(issues).toHaveLength(1);
    expect(issues[0]?.path).toEqual(['mcpServers', 'a', 'includeTools']);
    expect(issues[0]?.message).toMatch(/array of tool names or globs/);
    expect(result.servers.b?.excludeTools).toEqual(['x*']);
  });
});
