/**
 * A stdio MCP server exposing the ~500-tool catalogue, written on the raw SDK `Server`. Calls are
 * simulated: each answers with what it would have done, so examples can run the whole loop offline.
 * Run it with `node --import tsx src/servers/catalogue-server.ts`.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { createToolCatalogue } from './tool-catalogue.js';

const tools = createToolCatalogue() as Tool[];
const byName = new Map(tools.map((tool) => [tool.name, tool]));
let created = 0;

const server = new Server(
  { name: 'catalogue', version: '1.0.0' },
  { capabilities: { tools: {} }, instructions: 'A catalogue of business services (simulated).' },
);
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, ({ params }) => {
  const tool = byName.get(params.name);
  if (!tool) {
    return { isError: true, content: [{ type: 'text', text: `Unknown tool "${params.name}".` }] };
  }
  const args = params.arguments ?? {};
  const id = `${params.name.split('_')[0]}-${1000 + ++created}`;
  return {
    content: [{ type: 'text', text: `${params.name} done (simulated): ${JSON.stringify(args)} → id ${id}` }],
    structuredContent: { ok: true, id, tool: params.name, arguments: args },
  };
});

await server.connect(new StdioServerTransport());
