/**
 * The harness itself: a replica stopped and restarted keeps its port and serves again, and a
 * cluster that cannot start reports why and leaves no process behind.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Cluster, isRunning, startCluster } from '../src/index.js';
import { connectEraClient, eras } from './era-clients.js';

let cluster: Cluster | undefined;

beforeAll(async () => {
  // A short fail_timeout: the restarted replica is tried again after 2 s, not nginx's usual 10.
  cluster = await startCluster({ replicas: 2, failTimeoutSeconds: 2 });
});

afterAll(async () => {
  await cluster?.stop();
});

/** `count` echo calls through nginx by each era; resolves when all succeeded. */
async function callThroughNginx(count: number): Promise<void> {
  for (const era of eras) {
    const client = await connectEraClient(era, cluster!.url);
    try {
      for (let index = 0; index < count; index++) {
        const outcome = await client.callTool('mcp__echo__echo', { message: `${era} ${index}` });
        expect(outcome.content).toEqual([{ type: 'text', text: `echo: ${era} ${index}` }]);
      }
    } finally {
      await client.close();
    }
  }
}

it('a replica stopped with SIGTERM exits cleanly; calls go on; restarted, it serves again on its port', async () => {
  const replica = cluster!.replicas[1]!;
  const port = replica.port;
  expect(await replica.stop('SIGTERM')).toEqual({ code: 0, signal: null });
  await callThroughNginx(10);

  await replica.restart();
  expect(replica.port).toBe(port);
  expect(isRunning(replica.process)).toBe(true);
  // nginx's passive health check counted the refused connections: it tries the replica again once
  // fail_timeout has passed, which only a request shows, so keep calling (the calls are the probe,
  // no pause between rounds) until it serves, within 20 s.
  const logStart = cluster!.nginx.entries().length;
  const deadline = Date.now() + 20_000;
  let servedByRestarted = false;
  while (!servedByRestarted && Date.now() < deadline) {
    await callThroughNginx(5);
    const served = cluster!.nginx.entries().slice(logStart);
    expect(served.filter((entry) => entry.status >= 500)).toEqual([]);
    servedByRestarted = served.some((entry) => entry.upstream === `127.0.0.1:${port}`);
  }
  expect(servedByRestarted, `the restarted replica (port ${port}) served a request`).toBe(true);
});

it('a cluster whose replicas cannot start fails with their output and stops what it started', async () => {
  const failed = startCluster({ replicas: 2, serveArgs: ['--no-such-flag'], startTimeoutMs: 10_000 });
  await expect(failed).rejects.toThrow(/replica r\d: .*exited[\s\S]*no-such-flag/);
});
