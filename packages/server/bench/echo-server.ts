/**
 * The bench's server: an `echo` tool like server-everything's.
 * `node --import tsx echo-server.ts stdio|stateless|session [port]`.
 *
 * It runs the built package (`dist/`, what users install; `pnpm bench` builds it first), as the
 * reference runs its published build: the package's source through tsx costs 10–20 µs more per
 * HTTP round trip (esbuild's name-keeping wrappers on every closure). `BENCH_SOURCE=src` runs the
 * source instead.
 */
import { z } from 'zod';

type ServerPackage = typeof import('../src/index.js');
const entry = process.env.BENCH_SOURCE === 'src' ? '../src/index.js' : '../dist/index.js';
const { createMcpServer, defineTool, serve } = (await import(entry)) as ServerPackage;

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
