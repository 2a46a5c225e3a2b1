import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect, it } from 'vitest';
import { startEverythingHttp } from '../src/index.js';

it('starts server-everything over Streamable HTTP; `await using` kills it', async () => {
  let pid: number | undefined;
  let exited: Promise<unknown> | undefined;
  {
    await using server = await startEverythingHttp('streamableHttp');
    pid = server.process.pid;
    exited = new Promise((resolve) => server.process.once('exit', resolve));
    const client = new Client({ name: 'helper-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    expect((await client.listTools()).tools.some((tool) => tool.name === 'echo')).toBe(true);
    await client.close();
  }
  await exited;
  expect(pid).toBeGreaterThan(0);
});
