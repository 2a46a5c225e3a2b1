// The in-memory pair passes messages unchanged; an SDK v2 server connected to one end speaks the
// 2025 era (its modern entry is createMcpHandler), so a negotiating client falls back to it.
import { Client } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createInMemoryTransportPair } from '../src/index.js';

function server(): McpServer {
  const mcp = new McpServer({ name: 'in-memory', version: '1.0.0' });
  mcp.registerTool(
    'echo',
    { description: 'Echoes', inputSchema: z.object({ message: z.string() }) },
    async ({ message }) => ({
      content: [{ type: 'text', text: message }],
    }),
  );
  return mcp;
}

describe('in-memory transport pair', () => {
  for (const mode of ['auto', 'legacy'] as const) {
    const era = 'legacy';
    it(`connects an SDK v2 client (${mode} negotiation) and server`, async () => {
      const [clientSide, serverSide] = createInMemoryTransportPair();
      const mcp = server();
      await mcp.connect(serverSide);
      const client = new Client(
        { name: 'in-memory-client', version: '1.0.0' },
        { versionNegotiation: { mode } },
      );
      await client.connect(clientSide);
      expect(client.getProtocolEra()).toBe(era);
      expect(await client.callTool({ name: 'echo', arguments: { message: era } })).toMatchObject({
        content: [{ type: 'text', text: era }],
      });
      await client.close();
      await mcp.close();
    });
  }
});
