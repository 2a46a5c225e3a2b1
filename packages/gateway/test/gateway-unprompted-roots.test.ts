/**
 * Upstreams ask for roots unprompted — server-everything 350 ms after it is initialized — so such a
 * request may arrive while some unrelated call is relayed. A downstream client that declared no
 * roots capability must not lose that call: the upstream is told there are no roots, and the call
 * goes on (before, the 2026-07-28 call failed with -32021, "needs the client capability roots").
 */

import { type ServeHandle, serve } from '@switchboard/server';
import { serverScript } from '@switchboard/test-helpers';
import { afterEach, expect, test } from 'vitest';
import { createGateway, type Gateway } from '../src/index.js';
import { connectDownstream, type Downstream, type DownstreamKind } from './fixtures/downstream-clients.js';

const everything = serverScript('server-everything');

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

for (const kind of ['modern', 'v1'] as DownstreamKind[]) {
  test(`${kind}: calls in flight while server-everything asks for roots all succeed`, async () => {
    const gateway: Gateway = await createGateway({
      config: { mcpServers: { everything: { command: process.execPath, args: [everything, 'stdio'] } } },
    });
    cleanups.push(() => gateway.close());
    const handle = (await serve(gateway, {
      transport: { type: 'http', port: 0, session: true },
    })) as ServeHandle & {
      url: string;
    };
    cleanups.push(() => handle.close());
    const clients: Downstream[] = [];
    for (let index = 0; index < 3; index++) {
      const client = await connectDownstream(kind, handle.url, { roots: false });
      cleanups.push(() => client.close());
      clients.push(client);
    }
    // Three callers back to back from the moment the upstream is up, across the 350 ms mark and
    // beyond: some call is always in flight when the upstream asks.
    const started = Date.now();
    let calls = 0;
    await Promise.all(
      clients.map(async (client, worker) => {
        for (let index = 0; Date.now() - started < 1_500; index++) {
          const message = `call ${worker}.${index}`;
          const result = await client.call('mcp__everything__echo', { message });
          expect(result.content).toEqual([{ type: 'text', text: `Echo: ${message}` }]);
          calls++;
        }
      }),
    );
    expect(calls).toBeGreaterThan(30);
    for (const client of clients)
      expect(client.asked.filter((asked) => asked.method === 'roots/list')).toEqual([]);
  });
}
