/**
 * 2026-07-28 multi-round calls across replicas: an upstream tool asks the client for input
 * (elicitation); the gateway answers the modern client with an input-required result whose sealed
 * `requestState` names the replica holding the parked call; the client's retry goes through nginx
 * to the next replica (round robin), which relays it to the owner. Every call must finish with the
 * client's answer in it — one key file seals both 2025 session ids and the requestState.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ReplicaCluster, startReplicaCluster } from './replica-cluster.js';

let cluster: ReplicaCluster | undefined;

beforeAll(async () => {
  cluster = await startReplicaCluster();
});

afterAll(async () => {
  await cluster?.dispose();
});

it('elicitation inside a 2026-07-28 call: the retry on another replica reaches the parked call', async () => {
  const { url, nginx } = cluster!;
  const client = new Client(
    { name: 'scale-multi-round', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } } },
  );
  let asked = 0;
  client.setRequestHandler('elicitation/create', async () => {
    asked++;
    return { action: 'accept', content: { name: `caller ${asked}` } };
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const logStart = nginx.entries().length;
  try {
    for (let call = 1; call <= 6; call++) {
      const result = await client.callTool({ name: 'mcp__work__greet', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: `hello caller ${call}` }]);
    }
  } finally {
    await client.close();
  }
  expect(asked).toBe(6);
  // Each call took two POSTs, and nginx sent consecutive ones to different replicas.
  const posts = nginx
    .entries()
    .slice(logStart)
    .filter((entry) => entry.request.startsWith('POST '));
  expect(posts.length).toBeGreaterThanOrEqual(12);
  const hops = posts.slice(1).filter((entry, index) => entry.upstream !== posts[index]!.upstream).length;
  expect(hops).toBeGreaterThanOrEqual(6);
});
