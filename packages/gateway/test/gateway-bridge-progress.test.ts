/**
 * Progress and cancellation cross the gateway in every direction. Upstream progress notifications
 * reach the downstream call's stream (2025 and 2026-07-28 clients, 2025 and 2026-07-28-only
 * upstreams), also after a 2026-07-28 call was suspended for input and resumed: the progress the
 * upstream sends after the answer arrives on the retry's stream. A 2025 client's
 * `notifications/cancelled` and a 2026-07-28 client's closed stream abort the upstream call, and
 * the upstream sees it (its tool's signal fires); the gateway keeps serving.
 */

import { type ServeHandle, serve } from '@switchboard/server';
import { createEventLog } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createGateway, type Gateway } from '../src/index.js';
import { connectDownstream, type Downstream, type DownstreamKind } from './fixtures/downstream-clients.js';
import { type SdkV1Upstream, startSdkV1Upstream } from './fixtures/sdk-v1-upstream.js';
import { type SdkV2Upstream, startSdkV2Upstream } from './fixtures/sdk-v2-upstream.js';

let modernOnly: SdkV2Upstream;
let legacyV1: SdkV1Upstream;
let gateway: Gateway;
let handle: ServeHandle & { url: string };
const downstreams: Downstream[] = [];

beforeAll(async () => {
  [modernOnly, legacyV1] = await Promise.all([startSdkV2Upstream('reject'), startSdkV1Upstream()]);
  gateway = await createGateway({
    config: { mcpServers: { modern: { url: modernOnly.url }, v1: { url: legacyV1.url } } },
  });
  handle = (await serve(gateway, { transport: { type: 'http', port: 0, session: true } })) as ServeHandle & {
    url: string;
  };
}, 60_000);

afterAll(async () => {
  for (const downstream of downstreams.splice(0)) await downstream.close().catch(() => {});
  await handle?.close();
  await gateway?.close();
  await Promise.all([modernOnly?.close(), legacyV1?.close()]);
});

async function downstream(kind: DownstreamKind): Promise<Downstream> {
  const connected = await connectDownstream(kind, handle.url);
  downstreams.push(connected);
  return connected;
}

type Update = { progress: number; total?: number | undefined; message?: string | undefined };

/** The updates the server sent (the SDK v2 client adds its own round markers to `onprogress`). */
const fromServer = (updates: Update[]) =>
  updates.filter((update) => !String(update.message).startsWith('Fulfilling input required'));

const pairs: Array<[DownstreamKind, 'modern' | 'v1']> = [
  ['v1', 'v1'],
  ['modern', 'v1'],
  ['v1', 'modern'],
  ['modern', 'modern'],
];

describe('progress crosses the bridge', () => {
  for (const [client, upstream] of pairs) {
    test(`${client} client ← ${upstream} upstream`, async () => {
      const connected = await downstream(client);
      const updates: Update[] = [];
      const result = await connected.call(
        `mcp__${upstream}__slow`,
        { steps: 3 },
        {
          onprogress: (update) => updates.push(update),
          timeout: 30_000,
        },
      );
      expect(result.content).toEqual([{ type: 'text', text: 'slow: 3 steps' }]);
      expect(fromServer(updates).map((update) => [update.progress, update.total])).toEqual([
        [1, 3],
        [2, 3],
        [3, 3],
      ]);
    }, 30_000);
  }

  for (const [client, upstream] of pairs) {
    test(`after an answered elicitation: ${client} client ← ${upstream} upstream`, async () => {
      const connected = await downstream(client);
      const updates: Update[] = [];
      const result = await connected.call(
        `mcp__${upstream}__ask_then_work`,
        {},
        {
          onprogress: (update) => updates.push(update),
          timeout: 30_000,
        },
      );
      expect(result.content).toEqual([{ type: 'text', text: 'worked for Ada' }]);
      // A 2026-07-28 client got these on the stream of its retry (the first round's was closed).
      expect(fromServer(updates).map((update) => update.message)).toEqual([
        'upstream step 1',
        'upstream step 2',
        'upstream step 3',
      ]);
    }, 30_000);
  }
});

describe('cancellation crosses the bridge', () => {
  const cancelledOn = (upstream: 'modern' | 'v1') =>
    upstream === 'modern' ? modernOnly.ledger.cancelled : legacyV1.ledger.cancelled;

  for (const [client, upstream] of pairs) {
    test(`${client} client cancels, the ${upstream} upstream sees it`, async () => {
      const connected = await downstream(client);
      const before = cancelledOn(upstream).entries.length;
      const controller = new AbortController();
      const progress = createEventLog<unknown>('progress of the slow call');
      const call = connected.call(
        `mcp__${upstream}__slow`,
        { steps: 200 },
        {
          signal: controller.signal,
          timeout: 60_000,
          onprogress: progress.push,
        },
      );
      const outcome = call.then(
        () => 'finished',
        () => 'rejected',
      );
      // Cancel once the upstream is surely running (it has reported progress through the gateway).
      await progress.atLeast(1);
      controller.abort();
      expect(await outcome).toBe('rejected');
      expect(await cancelledOn(upstream).atLeast(before + 1)).toHaveLength(before + 1);
      // The gateway keeps serving that client and that upstream.
      const again = await connected.call(`mcp__${upstream}__slow`, { steps: 1 });
      expect(again.content).toEqual([{ type: 'text', text: 'slow: 1 steps' }]);
    }, 40_000);
  }
});
