/**
 * The gateway bridges eras for what an upstream asks of its client — elicitation, sampling,
 * roots — in every direction, with real servers and official clients:
 * - a 2026-07-28 client reaches 2025-only upstreams (server-everything over stdio, the SDK v1
 *   server over HTTP): the upstream's pushed request reaches the client as an input-required
 *   result, its answer goes back to the upstream, whose call (open all along, run once) finishes;
 * - a 2025 client (SDK v1, SDK v2 in its default mode) reaches a 2026-07-28-only SDK v2 server:
 *   the upstream's input-required result reaches the client as a request pushed on its session,
 *   and its answer goes back as the upstream retry's `inputResponses` (`requestState` echoed
 *   byte-exact);
 * - same-era pairs keep working, and a dual SDK v2 server serves both.
 * Results arrive as a direct call to the upstream gives them.
 */
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { ProtocolMessageEvent } from '@switchboard/client';
import { type ServeHandle, serve } from '@switchboard/server';
import { createEventLog, envelope, post, serverScript } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createGateway, type Gateway } from '../src/index.js';
import {
  comparable,
  connectDownstream,
  type Downstream,
  type DownstreamKind,
  scriptedAnswers,
} from './fixtures/downstream-clients.js';
import { type SdkV1Upstream, startSdkV1Upstream } from './fixtures/sdk-v1-upstream.js';
import { type SdkV2Upstream, startSdkV2Upstream } from './fixtures/sdk-v2-upstream.js';

const everything = serverScript('server-everything');

let modernOnly: SdkV2Upstream;
let dual: SdkV2Upstream;
let legacyV1: SdkV1Upstream;
let gateway: Gateway;
let handle: ServeHandle & { url: string };
const downstreams: Downstream[] = [];

beforeAll(async () => {
  [modernOnly, dual, legacyV1] = await Promise.all([
    startSdkV2Upstream('reject'),
    startSdkV2Upstream('stateless'),
    startSdkV1Upstream(),
  ]);
  const everythingWire = createEventLog<ProtocolMessageEvent>(
    "the gateway's messages with server-everything",
  );
  gateway = await createGateway({
    config: {
      mcpServers: {
        everything: { command: process.execPath, args: [everything, 'stdio'] },
        modern: { url: modernOnly.url },
        dual: { url: dual.url },
        v1: { url: legacyV1.url },
      },
    },
    connectOptions: {
      onMessage: (server, event) => {
        if (server === 'everything') everythingWire.push(event);
      },
    },
  });
  handle = (await serve(gateway, { transport: { type: 'http', port: 0, session: true } })) as ServeHandle & {
    url: string;
  };
  // server-everything asks for roots 350 ms after it is initialized, outside any call (the
  // gateway refuses: no downstream client to ask). Calls start once that refusal has gone back.
  const asked = await everythingWire.find(
    (event) => event.direction === 'in' && 'method' in event.message && event.message.method === 'roots/list',
    { what: 'server-everything to ask for roots' },
  );
  const askedId = 'id' in asked.message ? asked.message.id : undefined;
  await everythingWire.find(
    (event) =>
      event.direction === 'out' &&
      !('method' in event.message) &&
      'id' in event.message &&
      event.message.id === askedId,
    { what: "the gateway's answer to roots/list" },
  );
}, 60_000);

afterAll(async () => {
  for (const downstream of downstreams.splice(0)) await downstream.close().catch(() => {});
  await handle?.close();
  await gateway?.close();
  await Promise.all([modernOnly?.close(), dual?.close(), legacyV1?.close()]);
});

async function downstream(kind: DownstreamKind): Promise<Downstream> {
  const connected = await connectDownstream(kind, handle.url);
  downstreams.push(connected);
  return connected;
}

/** server-everything called directly by an SDK v1 client answering as the downstream clients do. */
async function directEverything(tool: string, args: Record<string, unknown>) {
  const client = new V1Client(
    { name: 'direct', version: '1.0.0' },
    { capabilities: { elicitation: {}, sampling: {}, roots: {} } },
  );
  client.setRequestHandler(ElicitRequestSchema, async () => scriptedAnswers.elicit as never);
  client.setRequestHandler(CreateMessageRequestSchema, async () => scriptedAnswers.sample as never);
  client.setRequestHandler(ListRootsRequestSchema, async () => scriptedAnswers.roots as never);
  // server-everything asks for roots 350 ms after initialize and logs once it has them: call after.
  const logs = createEventLog<unknown>('log messages of server-everything');
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) =>
    logs.push(notification.params.data),
  );
  await client.connect(
    new V1Stdio({ command: process.execPath, args: [everything, 'stdio'], stderr: 'ignore' }),
  );
  try {
    await logs.find((data) => /Roots updated|no roots/.test(String(data)), {
      what: 'server-everything to receive the roots',
    });
    return comparable((await client.callTool({ name: tool, arguments: args })) as Record<string, unknown>);
  } finally {
    await client.close();
  }
}

/** An SDK v2 upstream called directly by a client of the same kind. */
async function directModern(url: string, tool: string, args: Record<string, unknown>) {
  const client = await connectDownstream('modern', url);
  try {
    return comparable(await client.call(tool, args));
  } finally {
    await client.close();
  }
}

/** The tools/call requests an SDK v2 upstream received for `tool`. */
const callsOf = (upstream: SdkV2Upstream, tool: string) =>
  upstream.received.filter((message) => message.method === 'tools/call' && message.params?.name === tool);

describe('a 2026-07-28 client reaches 2025-only upstreams', () => {
  test('server-everything: elicitation, sampling and roots arrive as input-required rounds; results as a direct call gives them', async () => {
    const client = await downstream('modern');
    const elicited = await client.call('mcp__everything__trigger-elicitation-request');
    expect(comparable(elicited)).toEqual(await directEverything('trigger-elicitation-request', {}));
    expect(JSON.stringify(elicited.content)).toContain('Name: Ada');
    const sampled = await client.call('mcp__everything__trigger-sampling-request', {
      prompt: 'hi',
      maxTokens: 20,
    });
    expect(comparable(sampled)).toEqual(
      await directEverything('trigger-sampling-request', { prompt: 'hi', maxTokens: 20 }),
    );
    expect(JSON.stringify(sampled.content)).toContain('a short summary');
    const roots = await client.call('mcp__everything__get-roots-list');
    expect(JSON.stringify(roots.content)).toContain('file:///downstream/work');
    // The client was asked exactly what the upstream asked, as the upstream asked it.
    expect(client.asked.map((entry) => entry.method)).toEqual([
      'elicitation/create',
      'sampling/createMessage',
      'roots/list',
    ]);
    expect(client.asked[0]?.params).toMatchObject({
      message: 'Please provide inputs for the following fields:',
    });
    expect(client.asked[1]?.params).toMatchObject({
      systemPrompt: 'You are a helpful test server.',
      maxTokens: 20,
    });
  }, 60_000);

  test('on the wire: the call answers input-required; the retry finishes the upstream call, which ran once', async () => {
    const runsBefore = legacyV1.ledger.runs.ask ?? 0;
    const caps = { elicitation: {} };
    const first = await post(handle.url, 'tools/call', {
      name: 'mcp__v1__ask',
      arguments: {},
      _meta: envelope(caps),
    });
    expect(first.body.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: {
        elicitation_1: {
          method: 'elicitation/create',
          params: { message: 'Your name?', requestedSchema: { properties: { name: { type: 'string' } } } },
        },
      },
    });
    expect(typeof first.body.result?.requestState).toBe('string');
    const second = await post(handle.url, 'tools/call', {
      name: 'mcp__v1__ask',
      arguments: {},
      inputResponses: { elicitation_1: { action: 'accept', content: { name: 'Grace' } } },
      requestState: first.body.result?.requestState,
      _meta: envelope(caps),
    });
    expect(second.body.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'accept: Grace' }],
      structuredContent: { action: 'accept', name: 'Grace' },
    });
    // One upstream run across both downstream rounds: the upstream call stayed open.
    expect((legacyV1.ledger.runs.ask ?? 0) - runsBefore).toBe(1);
  }, 30_000);
});

describe('a 2025 client reaches a 2026-07-28-only upstream', () => {
  for (const kind of ['v1', 'v2-legacy'] as const) {
    test(`${kind}: input-required rounds arrive as requests on the session; the answers go back as inputResponses`, async () => {
      const client = await downstream(kind);
      const before = callsOf(modernOnly, 'ask_name').length;
      const greeted = await client.call('mcp__modern__ask_name');
      expect(comparable(greeted)).toEqual(await directModern(modernOnly.url, 'ask_name', {}));
      expect(greeted).toMatchObject({
        content: [{ type: 'text', text: 'Hello, Ada' }],
        structuredContent: { greeted: 'Ada' },
        _meta: { 'example.com/upstream': 'sdk-v2' },
      });
      // The upstream saw its first round, then the retry with the answer and its own state, byte for byte.
      const rounds = callsOf(modernOnly, 'ask_name').slice(before, before + 2);
      expect(rounds[0]?.params?.inputResponses).toBeUndefined();
      expect(rounds[1]?.params).toMatchObject({
        requestState: 'opaque-state:ask_name:round-1',
        inputResponses: { name: scriptedAnswers.elicit },
      });
      expect(client.asked[0]).toMatchObject({
        method: 'elicitation/create',
        params: { message: 'Your name?' },
      });

      const summary = await client.call('mcp__modern__summarize', { text: 'a long text' });
      expect(summary.content).toEqual([{ type: 'text', text: 'summary: a short summary' }]);
      expect(client.asked[1]).toMatchObject({
        method: 'sampling/createMessage',
        params: { messages: [{ role: 'user', content: { type: 'text', text: 'Summarize: a long text' } }] },
      });
      const roots = await client.call('mcp__modern__roots');
      expect(roots.content).toEqual([{ type: 'text', text: 'file:///downstream/work' }]);
      expect(client.asked.map((entry) => entry.method)).toEqual([
        'elicitation/create',
        'sampling/createMessage',
        'roots/list',
      ]);
    }, 30_000);
  }
});

describe('same-era pairs', () => {
  test('2025 ↔ 2025: an SDK v1 client answers server-everything through the gateway', async () => {
    const client = await downstream('v1');
    const elicited = await client.call('mcp__everything__trigger-elicitation-request');
    expect(comparable(elicited)).toEqual(await directEverything('trigger-elicitation-request', {}));
    const asked = await client.call('mcp__v1__ask');
    expect(asked.structuredContent).toEqual({ action: 'accept', name: 'Ada' });
  }, 30_000);

  test('2026-07-28 ↔ 2026-07-28: the pinned client answers the modern-only upstream', async () => {
    const client = await downstream('modern');
    const before = callsOf(modernOnly, 'ask_name').length;
    const greeted = await client.call('mcp__modern__ask_name');
    expect(comparable(greeted)).toEqual(await directModern(modernOnly.url, 'ask_name', {}));
    expect(callsOf(modernOnly, 'ask_name').slice(before)[1]?.params?.requestState).toBe(
      'opaque-state:ask_name:round-1',
    );
    const roots = await client.call('mcp__modern__roots');
    expect(roots.content).toEqual([{ type: 'text', text: 'file:///downstream/work' }]);
  }, 30_000);

  test('a dual SDK v2 upstream serves clients of both eras through the gateway', async () => {
    for (const kind of ['modern', 'v1'] as const) {
      const client = await downstream(kind);
      const greeted = await client.call('mcp__dual__ask_name');
      expect(greeted.content).toEqual([{ type: 'text', text: 'Hello, Ada' }]);
      const summary = await client.call('mcp__dual__summarize', { text: 'x' });
      expect(summary.content).toEqual([{ type: 'text', text: 'summary: a short summary' }]);
    }
    // The gateway reached the dual server in the modern era (it negotiates modern first).
    expect((gateway.clients.status() as Record<string, { era?: string }>).dual?.era).toBe('modern');
  }, 30_000);
});
