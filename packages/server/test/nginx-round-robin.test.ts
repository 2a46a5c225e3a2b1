/**
 * Three replicas behind a real nginx balancing round-robin without stickiness: official clients of
 * both eras through it, a 2025 session whose requests land on every replica, and a replica that
 * drains while calls go on (nginx fails over on the refused connect; no call is lost), and
 * 2026-07-28 multi-round calls whose retries nginx spreads over the replicas (relayed to the owner).
 */
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createEventLog } from '@switchboard/test-helpers';
import { afterEach, describe, expect, test } from 'vitest';
import { type OwnNginx, startNginx } from './fixtures/own-nginx.js';
import { type ReplicaSet, startReplicas } from './fixtures/replica-set.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function balanced(): Promise<{ set: ReplicaSet; nginx: OwnNginx }> {
  const set = await startReplicas();
  cleanups.push(() => set.close());
  const nginx = await startNginx(set.replicas.map((replica) => new URL(replica.url).host));
  cleanups.push(() => nginx.stop());
  return { set, nginx };
}

const textOf = (result: unknown) =>
  ((result as { content: Array<{ text: string }> }).content[0] as { text: string }).text;

describe('behind nginx round-robin', () => {
  test('a 2025 session (SDK v1) and a 2026-07-28 client (SDK v2) are served by every replica', async () => {
    const { nginx } = await balanced();
    const legacy = new V1Client({ name: 'nginx-v1', version: '1.0.0' });
    await legacy.connect(new V1Http(new URL(nginx.url)));
    cleanups.push(() => legacy.close());
    const answers: string[] = [];
    for (let call = 0; call < 12; call += 1)
      answers.push(textOf(await legacy.callTool({ name: 'count', arguments: {} })));
    expect(answers.map((answer) => Number(answer.split(' ')[0]))).toEqual(
      Array.from({ length: 12 }, (_, index) => index + 1),
    );
    expect(new Set(answers.map((answer) => answer.split(' ')[1])).size).toBeGreaterThan(1);

    const modern = new V2Client({ name: 'nginx-v2', version: '1.0.0' }, {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
    } as never);
    await modern.connect(new V2Http(new URL(nginx.url)));
    cleanups.push(() => modern.close());
    for (let call = 0; call < 6; call += 1)
      expect(textOf(await modern.callTool({ name: 'echo', arguments: { message: `n${call}` } }))).toBe(
        `Echo: n${call}`,
      );
  });

  test('2026-07-28 multi-round calls through nginx: every retry reaches the parked run, whichever replica nginx picks', async () => {
    const { nginx } = await balanced();
    const client = new V2Client({ name: 'nginx-mrtr', version: '1.0.0' }, {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      capabilities: { elicitation: {} },
    } as never);
    client.setRequestHandler('elicitation/create', async (request) => {
      const message = String((request.params as { message?: unknown }).message);
      return (
        message === 'Your name?'
          ? { action: 'accept', content: { name: 'Ada' } }
          : { action: 'accept', content: { colour: 'plum' } }
      ) as never;
    });
    // Which replica answered each retry (nginx passes x-switchboard-replica through).
    const retriesAt: string[] = [];
    const recording = (async (input: string | URL | Request, init?: RequestInit) => {
      const response = await fetch(input, init);
      if (typeof init?.body === 'string' && init.body.includes('"requestState"'))
        retriesAt.push(response.headers.get('x-switchboard-replica') ?? '?');
      return response;
    }) as typeof fetch;
    await client.connect(new V2Http(new URL(nginx.url), { fetch: recording }));
    cleanups.push(() => client.close());
    const owners: string[] = [];
    for (let call = 0; call < 4; call += 1) {
      const text = textOf(await client.callTool({ name: 'ask_twice', arguments: {} }));
      expect(text).toMatch(/^Ada likes plum \(asked by r\d\)$/);
      owners.push(text.slice(-3, -1));
    }
    // Each call's two retries were answered through replicas other than the one running it.
    expect(retriesAt).toHaveLength(8);
    expect(
      retriesAt.filter((replica, index) => replica !== owners[Math.floor(index / 2)]).length,
    ).toBeGreaterThan(0);
  });

  test('a replica draining under load: every call is answered, later ones by the other replicas', async () => {
    const { set, nginx } = await balanced();
    const client = new V1Client({ name: 'nginx-drain', version: '1.0.0' });
    await client.connect(new V1Http(new URL(nginx.url)));
    cleanups.push(() => client.close());
    const before = await Promise.all(
      Array.from({ length: 6 }, () => client.callTool({ name: 'slow', arguments: { steps: 3, ms: 100 } })),
    );
    expect(before.every((result) => textOf(result).startsWith('done 3 on r'))).toBe(true);
    // Each call's first progress says a replica is running it: drain once all six are in flight.
    const running = createEventLog<number>('calls whose first progress came');
    const calls = Array.from({ length: 6 }, (_, call) => {
      let started = false;
      return client.callTool({ name: 'slow', arguments: { steps: 3, ms: 150 } }, undefined, {
        onprogress: () => {
          if (!started) running.push(call);
          started = true;
        },
      });
    });
    await running.atLeast(6);
    await set.replicas[0]?.handle.drain?.();
    const during = await Promise.all(calls);
    expect(during.every((result) => textOf(result).startsWith('done 3 on r'))).toBe(true);
    const after: string[] = [];
    for (let call = 0; call < 6; call += 1)
      after.push(textOf(await client.callTool({ name: 'count', arguments: {} })));
    expect(after.some((answer) => answer.endsWith(' r1'))).toBe(false);
  });
});
