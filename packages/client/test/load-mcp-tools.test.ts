import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { serverScript } from '@switchboard/test-helpers';
import { afterEach, describe, expect, it } from 'vitest';
import { loadMcpTools } from '../src/index.js';

describe('loadMcpTools', () => {
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  it('gives the same tool records for an SDK client the user connected', async () => {
    const client = new Client({ name: 'my-app', version: '1.0.0' });
    clients.push(client);
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [serverScript('server-everything'), 'stdio'],
      }),
    );
    const loaded = await loadMcpTools(client, 'everything', { prefix: 'ev' });
    expect(Object.keys(loaded.tools)).toContain('mcp__ev__echo');
    expect(loaded.registry.resolve('mcp__ev__get-sum')).toEqual({
      server: 'everything',
      originalName: 'get-sum',
    });
    const sum = await loaded.tools['mcp__ev__get-sum']!.execute!({ a: 2, b: 40 });
    expect(sum).toMatchObject({ status: 'success', message: expect.stringContaining('42') });
    await expect(loaded.tools['mcp__ev__get-sum']!.execute!({ a: 'two' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    // With a policy that asks and no approve callback, nothing runs.
    const strict = await loadMcpTools(client, 'strict', { approval: 'always' });
    await expect(strict.tools.mcp__strict__echo!.execute!({ message: 'x' })).rejects.toMatchObject({
      code: 'APPROVAL_REQUIRED',
    });
    expect(loaded.metrics().tools.everything?.['get-sum']?.calls).toBe(1);
  });
});
