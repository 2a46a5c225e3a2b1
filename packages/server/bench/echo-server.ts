/** The bench's server: an `echo` tool like server-everything's. `node --import tsx echo-server.ts stdio|stateless|session [port]`. */
import { z } from 'zod';
import { createMcpServer, defineTool, serve } from '../src/index.js';

const server = createMcpServer({
  name: 'bench-echo',
  version: '1.0.0',
  tools: [
    defineTool({
      name: 'echo',
      description: 'Echoes back the input',
      input: z.object({ message: z.string().describe('Message to echo') }),
      execute: ({ message }) => `Echo: ${message}`,
    }),
  ],
});

const mode = process.argv[2] ?? 'stdio';
if (mode === 'stdio') {
  await serve(server, { transport: 'stdio' });
} else {
  const handle = await serve(server, {
    transport: {
      type: 'http',
      port: Number(process.argv[3] ?? 0),
      session: mode === 'session',
      json: mode !== 'session',
    },
  });
  process.stdout.write(`${handle.url}\n`);
}
