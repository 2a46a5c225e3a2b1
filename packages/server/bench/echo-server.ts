/**
 * The bench's server: an `echo` tool like server-everything's.
 * `node --import tsx echo-server.ts stdio|stateless|session|replica [port]`.
 *
 * It runs the built package (`dist/`, what users install; `pnpm bench` builds it first), as the
 * reference runs its published build: the package's source through tsx costs 10–20 µs more per
 * HTTP round trip (esbuild's name-keeping wrappers on every closure). `BENCH_SOURCE=src` runs the
 * source instead.
 *
 * `replica` (the scale bench, `scale.ts`) is one replica as deployed behind nginx: a Redis cluster
 * state (`BENCH_REDIS_URL`, `BENCH_KEY_PREFIX`, `BENCH_REPLICA_ID`) shared by two listeners on free
 * ports, a stateless JSON one (2025 without sessions, and 2026-07-28) and a session one (2025
 * sessions sealed with `BENCH_SESSION_KEY`, hex). It prints `{"stateless":URL,"session":URL}` on
 * one stdout line, answers each `stats` line on stdin with `{"operations":N}` (Redis commands so
 * far), and closes when stdin ends, so it never outlives the bench.
 */
import { z } from 'zod';

type ServerPackage = typeof import('../src/index.js');
type RedisPackage = typeof import('../src/redis.js');
const source = process.env.BENCH_SOURCE === 'src';
const { createMcpServer, defineTool, serve } = (await import(
  source ? '../src/index.js' : '../dist/index.js'
)) as ServerPackage;

const createEchoServer = () =>
  createMcpServer({
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
  await serve(createEchoServer(), { transport: 'stdio' });
} else if (mode === 'replica') {
  const { createRedisClusterState } = (await import(
    source ? '../src/redis.js' : '../dist/redis.js'
  )) as RedisPackage;
  const replicaId = process.env.BENCH_REPLICA_ID ?? 'r0';
  const cluster = createRedisClusterState({
    url: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
    keyPrefix: process.env.BENCH_KEY_PREFIX ?? `sbbench:${process.pid}:`,
    replicaId,
  });
  if (!(await cluster.ready())) throw new Error(`bench replica ${replicaId}: Redis unreachable`);
  // As behind nginx in production (docs/deploy.md): the balancer closes its idle connections.
  const common = {
    type: 'http',
    port: 0,
    replicaId,
    cluster,
    drainWaitsForIdleClose: true,
    drainTimeoutMs: 1_000,
  } as const;
  const stateless = await serve(createEchoServer(), { transport: { ...common, json: true } });
  const session = await serve(createEchoServer(), {
    transport: {
      ...common,
      session: true,
      sessionKeys: [Buffer.from(process.env.BENCH_SESSION_KEY ?? '', 'hex')],
    },
  });
  process.stdout.write(`${JSON.stringify({ stateless: stateless.url, session: session.url })}\n`);
  let pending = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (line.trim() === 'stats')
        process.stdout.write(`${JSON.stringify({ operations: cluster.operations })}\n`);
    }
  });
  process.stdin.on('end', () => {
    const closing = Promise.allSettled([stateless.close(), session.close()]).then(() => cluster.close());
    // Bounded: whatever is still open after 2 s does not keep the process.
    setTimeout(() => process.exit(0), 2_000).unref();
    void closing.then(() => process.exit(0));
  });
} else {
  const handle = await serve(createEchoServer(), {
    transport: {
      type: 'http',
      port: Number(process.argv[3] ?? 0),
      session: mode === 'session',
      json: mode !== 'session',
    },
  });
  process.stdout.write(`${handle.url}\n`);
}
