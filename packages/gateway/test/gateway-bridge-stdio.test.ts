/**
 * The bridge when the gateway itself is served over stdio (a child process its client spawns):
 * a 2026-07-28 client (SDK v2 pinned) and a 2025 client (SDK v1) answer what 2025 and
 * 2026-07-28-only upstreams ask, and get the upstream's progress.
 */
import { fileURLToPath } from 'node:url';
import { Client as V2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { scriptedAnswers } from './fixtures/downstream-clients.js';
import { type SdkV1Upstream, startSdkV1Upstream } from './fixtures/sdk-v1-upstream.js';
import { type SdkV2Upstream, startSdkV2Upstream } from './fixtures/sdk-v2-upstream.js';

const script = fileURLToPath(new URL('./fixtures/gateway-stdio.ts', import.meta.url));

let modernOnly: SdkV2Upstream;
let legacyV1: SdkV1Upstream;
let spawnOptions: { command: string; args: string[]; env: Record<string, string>; stderr: 'ignore' };

beforeAll(async () => {
  [modernOnly, legacyV1] = await Promise.all([startSdkV2Upstream('reject'), startSdkV1Upstream()]);
  spawnOptions = {
    command: process.execPath,
    args: ['--import', 'tsx', script],
    env: {
      ...(process.env as Record<string, string>),
      GATEWAY_UPSTREAMS: JSON.stringify({ modern: { url: modernOnly.url }, v1: { url: legacyV1.url } }),
    },
    stderr: 'ignore',
  };
});

afterAll(async () => {
  await Promise.all([modernOnly?.close(), legacyV1?.close()]);
});

type Update = { progress: number; message?: string | undefined };

/**
 * The progress notifications that reach a client's transport, in order. Asserted on the wire: the
 * official SDK clients hand a notification to its handler a microtask late but settle the response
 * at once, so an `onprogress` callback can miss the last step when it arrives in the same read as
 * the response (seen with SDK v1 over stdio on Node 24) — the clients' race, not the gateway's.
 */
function progressOnTheWire(transport: { onmessage?: ((message: never, extra?: never) => void) | undefined }) {
  const seen: Update[] = [];
  const next = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const { method, params } = message as { method?: string; params?: Update };
    if (method === 'notifications/progress' && params !== undefined) seen.push(params);
    next?.(message, extra);
  };
  return seen;
}

/**
 * What the `onprogress` callback got of the server's progress: the wire's notifications in order,
 * maybe without the last ones (the SDK v2 client adds markers of its own, left out here).
 */
function expectPrefixOf(callback: Update[], wire: Update[]): void {
  const key = (update: Update) => `${update.progress}:${update.message ?? ''}`;
  const onWire = wire.map(key);
  const got = callback.map(key).filter((entry) => onWire.includes(entry));
  expect(got.length).toBeGreaterThan(0);
  expect(onWire.slice(0, got.length)).toEqual(got);
}

describe('a gateway served over stdio', () => {
  test('2026-07-28 client: elicitation from both upstreams, and progress after the answer', async () => {
    const client = new V2Client(
      { name: 'stdio-modern', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: {} } },
    );
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(String(request.params.message));
      return scriptedAnswers.elicit as never;
    });
    const transport = new V2Stdio(spawnOptions);
    await client.connect(transport);
    const wire = progressOnTheWire(transport as never);
    try {
      expect(client.getProtocolEra()).toBe('modern');
      const fromV1 = await client.callTool({ name: 'mcp__v1__ask', arguments: {} });
      expect(fromV1.structuredContent).toEqual({ action: 'accept', name: 'Ada' });
      const fromModern = await client.callTool({ name: 'mcp__modern__ask_name', arguments: {} });
      expect(fromModern.content).toEqual([{ type: 'text', text: 'Hello, Ada' }]);
      const updates: Update[] = [];
      await client.callTool({ name: 'mcp__v1__ask_then_work', arguments: {} }, {
        onprogress: (update: Update) => updates.push(update),
      } as never);
      expect(
        wire.map((update) => update.message).filter((message) => String(message).startsWith('upstream')),
      ).toEqual(['upstream step 1', 'upstream step 2', 'upstream step 3']);
      expectPrefixOf(updates, wire);
      expect(asked).toEqual(['Your name?', 'Your name?', 'Who asks?']);
    } finally {
      await client.close();
    }
  }, 60_000);

  test('2025 client: elicitation from both upstreams, and progress', async () => {
    const client = new V1Client(
      { name: 'stdio-v1', version: '1.0.0' },
      { capabilities: { elicitation: {} } },
    );
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(String(request.params.message));
      return scriptedAnswers.elicit as never;
    });
    const transport = new V1Stdio(spawnOptions);
    await client.connect(transport);
    const wire = progressOnTheWire(transport as never);
    try {
      const fromV1 = await client.callTool({ name: 'mcp__v1__ask', arguments: {} });
      expect(fromV1.structuredContent).toEqual({ action: 'accept', name: 'Ada' });
      const fromModern = await client.callTool({ name: 'mcp__modern__ask_name', arguments: {} });
      expect(fromModern.content).toEqual([{ type: 'text', text: 'Hello, Ada' }]);
      const updates: Update[] = [];
      await client.callTool({ name: 'mcp__modern__slow', arguments: { steps: 3 } }, undefined, {
        onprogress: (update) => updates.push(update),
      });
      expect(wire.map((update) => update.progress)).toEqual([1, 2, 3]);
      expectPrefixOf(updates, wire);
      expect(asked).toEqual(['Your name?', 'Your name?']);
    } finally {
      await client.close();
    }
  }, 60_000);
});
