import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { expect, it } from 'vitest';
import { connectInMemory } from '../src/index.js';

it('connects a client to a server in memory; `await using` closes both', async () => {
  const server = new McpServer({ name: 'memory-test', version: '1.0.0' });
  server.registerTool('ping', { description: 'Answers pong' }, () => ({
    content: [{ type: 'text', text: 'pong' }],
  }));
  let closed = false;
  {
    await using connection = await connectInMemory(server, { name: 'helper-test' });
    connection.client.onclose = () => {
      closed = true;
    };
    const result = await connection.client.callTool({ name: 'ping', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'pong' }]);
  }
  expect(closed).toBe(true);
});
