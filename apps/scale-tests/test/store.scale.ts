/**
 * The durable half: replicas sharing one PostgreSQL registry store (`--store postgres://…`, a
 * schema of this test's own). Usage is counted in SQL, so calls spread over three replicas add up
 * exactly (`switchboard stats` reads the sum); and a catalogue change seen by one replica — its
 * session with a shared HTTP upstream is the only one told — reaches the others within 3 s through
 * the store's change feed.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Cluster, cliBin, startCluster, stopProcess } from '../src/index.js';
import { postgresUrl, within } from './scale-env.js';

const upstreamScript = fileURLToPath(new URL('../fixtures/shared-upstream.mjs', import.meta.url));
const schema = `scale_${randomBytes(4).toString('hex')}`;
const storeUrl = `${postgresUrl}?schema=${schema}`;
let upstream: ChildProcess | undefined;
let cluster: Cluster | undefined;

beforeAll(async () => {
  upstream = spawn(process.execPath, [upstreamScript], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    upstream!.stdout!.on('data', (chunk: Buffer) => {
      const match = /listening (\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    });
    upstream!.once('exit', (code) => reject(new Error(`shared upstream exited (${code})`)));
  });
  cluster = await startCluster({
    replicas: 3,
    // A new tool is let through with a warning (the default quarantines it until approved): this
    // test is about the change reaching the other replicas.
    mcpServers: { shared: { url: `http://127.0.0.1:${port}/mcp`, trust: { pin: 'warn' } } },
    serveArgs: ({ id }) => ['--store', storeUrl, '--replica-id', id],
    env: { SWITCHBOARD_STORE: storeUrl },
  });
});

afterAll(async () => {
  await cluster?.stop();
  if (upstream) await stopProcess(upstream, 'SIGTERM');
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
});

async function modernClient(url: string): Promise<Client> {
  const client = new Client(
    { name: 'scale-store', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

it('300 calls over three replicas are counted exactly once each in the shared store', async () => {
  const clients = await Promise.all(Array.from({ length: 6 }, () => modernClient(cluster!.url)));
  try {
    await Promise.all(
      clients.map(async (client) => {
        for (let call = 0; call < 50; call++) {
          const result = await client.callTool({ name: 'mcp__shared__ping', arguments: {} });
          expect(result.isError, JSON.stringify(result.content)).not.toBe(true);
        }
      }),
    );
  } finally {
    await Promise.allSettled(clients.map((client) => client.close()));
  }
  // `switchboard stats` against the database: the one place every replica's calls add up.
  const stats = async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [
      cliBin(),
      'stats',
      '--store',
      storeUrl,
      '--json',
    ]);
    const report = JSON.parse(stdout) as { store: string; tools: Array<{ tool: string; calls: number }> };
    expect(report.store).not.toContain('switchboard:switchboard@'); // no password in what it prints
    return report.tools.find((tool) => tool.tool === 'ping')?.calls ?? 0;
  };
  const took = await within(5_000, async () => (await stats()) === 300, 250);
  expect(took, `calls counted: ${await stats()}`).toBeGreaterThanOrEqual(0);
});

it('a catalogue change one replica saw reaches the other replicas within 3 s', async () => {
  const [r0, r1, r2] = cluster!.replicas as [
    Cluster['replicas'][number],
    Cluster['replicas'][number],
    Cluster['replicas'][number],
  ];
  const watchers = await Promise.all([r1, r2].map((replica) => modernClient(replica.url)));
  const changer = await modernClient(r0.url);
  try {
    const before = await watchers[0]!.listTools();
    expect(before.tools.map((tool) => tool.name)).not.toContain('mcp__shared__grown_2');
    const grown = await changer.callTool({ name: 'mcp__shared__grow', arguments: {} });
    expect(grown.content).toEqual([{ type: 'text', text: 'added grown_2' }]);
    for (const [index, watcher] of watchers.entries()) {
      const took = await within(
        3_000,
        async () => {
          const { tools } = await watcher.listTools();
          return tools.some((tool) => tool.name === 'mcp__shared__grown_2');
        },
        100,
      );
      expect(took, `replica r${index + 1} lists the new tool`).toBeGreaterThanOrEqual(0);
    }
  } finally {
    await Promise.allSettled([changer, ...watchers].map((client) => client.close()));
  }
});
