/**
 * One trace from an agent through a Switchboard client, a gateway and an upstream Switchboard
 * server, all over Streamable HTTP in this process with the real OpenTelemetry SDK registered
 * globally, in each pairing of protocol eras on the two hops (2025 `initialize` with sessions, and
 * 2026-07-28 stateless): agent → client CLIENT span → gateway SERVER span → gateway CLIENT span →
 * upstream SERVER span, each the parent of the next, one trace id; the semantic-convention
 * attributes on each; a failing tool as `error.type` `tool_error` and status ERROR on every hop;
 * the duration histograms of both sides per tool. The same chain for what the gateway relays
 * besides tool calls: `resources/read`, `prompts/get`, `completion/complete`.
 */
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { connectMcp, type McpConnection } from '@switchboard/client';
import { type ServeHandle, serve } from '@switchboard/server';
import { asAgent, registerInMemoryTelemetry } from '@switchboard/test-helpers/telemetry';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createGateway, type Gateway } from '../src/index.js';
import { createTracedUpstream } from './fixtures/traced-upstream.js';

const telemetry = registerInMemoryTelemetry();

const legacy = '2025-11-25';
const modern = '2026-07-28';

/** The spans of one trace, by role. */
function hops(traceId: string, downstreamTool: string, upstreamTool: string) {
  const spans = telemetry.spans().filter((span) => span.spanContext().traceId === traceId);
  const one = (kind: SpanKind, name: string): ReadableSpan => {
    const found = spans.filter((span) => span.kind === kind && span.name === name);
    expect(found, `${SpanKind[kind]} ${name}`).toHaveLength(1);
    return found[0] as ReadableSpan;
  };
  return {
    client: one(SpanKind.CLIENT, `tools/call ${downstreamTool}`),
    gatewayServer: one(SpanKind.SERVER, `tools/call ${downstreamTool}`),
    gatewayClient: one(SpanKind.CLIENT, `tools/call ${upstreamTool}`),
    upstreamServer: one(SpanKind.SERVER, `tools/call ${upstreamTool}`),
    count: spans.length,
  };
}

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const idOf = (span: ReadableSpan) => span.spanContext().spanId;

/**
 * The chain of spans below the agent's: each step the one span of the trace with that kind and
 * name whose parent is the step before (the agent span for the first).
 */
function chainFrom(agent: { traceId: string; spanId: string }, steps: Array<[SpanKind, string]>) {
  const spans = telemetry.spans().filter((span) => span.spanContext().traceId === agent.traceId);
  let parent = agent.spanId;
  return steps.map(([kind, name]) => {
    const found = spans.filter(
      (span) => span.kind === kind && span.name === name && parentOf(span) === parent,
    );
    expect(found, `${SpanKind[kind]} ${name}, the child of ${parent}`).toHaveLength(1);
    const span = found[0] as ReadableSpan;
    parent = idOf(span);
    return span;
  });
}

for (const downstream of [legacy, modern]) {
  for (const upstream of [legacy, modern]) {
    describe(`client —${downstream}→ gateway —${upstream}→ upstream, over HTTP`, () => {
      let upstreamHandle: ServeHandle;
      let gateway: Gateway;
      let gatewayHandle: ServeHandle;
      let connection: McpConnection;
      let addName: string;
      let failName: string;

      beforeAll(async () => {
        upstreamHandle = await serve(createTracedUpstream(), {
          transport: { type: 'http', port: 0, session: true },
        });
        gateway = await createGateway({
          config: { mcpServers: { up: { url: upstreamHandle.url as string, protocolVersion: upstream } } },
        });
        gatewayHandle = await serve(gateway, { transport: { type: 'http', port: 0, session: true } });
        connection = await connectMcp(
          { gw: { url: gatewayHandle.url as string, protocolVersion: downstream } },
          { rawResults: true },
        );
        const names = Object.keys(connection.tools);
        addName = names.find((name) => name.endsWith('__add')) as string;
        failName = names.find((name) => name.endsWith('__fail')) as string;
        expect(addName).toBeDefined();
      }, 60_000);

      afterAll(async () => {
        await connection?.close();
        await gatewayHandle?.close();
        await gateway?.close();
        await upstreamHandle?.close();
      });

      test('one trace: each span the parent of the next, with the MCP attributes', async () => {
        const { value, agent } = await asAgent(() => connection.callTool(addName, { a: 2, b: 40 }));
        expect((value as { content: Array<{ text: string }> }).content[0]?.text).toBe('42');
        const spans = hops(agent.traceId, 'mcp__up__add', 'add');
        expect(parentOf(spans.client)).toBe(agent.spanId);
        expect(parentOf(spans.gatewayServer)).toBe(idOf(spans.client));
        expect(parentOf(spans.gatewayClient)).toBe(idOf(spans.gatewayServer));
        expect(parentOf(spans.upstreamServer)).toBe(idOf(spans.gatewayClient));
        for (const span of [spans.client, spans.gatewayServer, spans.gatewayClient, spans.upstreamServer]) {
          expect(span.attributes).toMatchObject({
            'mcp.method.name': 'tools/call',
            'gen_ai.operation.name': 'execute_tool',
            'network.transport': 'tcp',
          });
          expect(span.attributes['error.type']).toBeUndefined();
          expect(span.status.code).toBe(SpanStatusCode.UNSET);
        }
        expect(spans.client.attributes['gen_ai.tool.name']).toBe('mcp__up__add');
        expect(spans.gatewayServer.attributes['gen_ai.tool.name']).toBe('mcp__up__add');
        expect(spans.gatewayClient.attributes['gen_ai.tool.name']).toBe('add');
        expect(spans.upstreamServer.attributes['gen_ai.tool.name']).toBe('add');
        // Each hop in its own era.
        expect(spans.client.attributes['mcp.protocol.version']).toBe(downstream);
        expect(spans.gatewayServer.attributes['mcp.protocol.version']).toBe(downstream);
        expect(spans.gatewayClient.attributes['mcp.protocol.version']).toBe(upstream);
        expect(spans.upstreamServer.attributes['mcp.protocol.version']).toBe(upstream);
        // The JSON-RPC id both sides of a hop recorded is the one on the wire.
        expect(spans.client.attributes['jsonrpc.request.id']).toBeDefined();
        expect(spans.gatewayServer.attributes['jsonrpc.request.id']).toBe(
          spans.client.attributes['jsonrpc.request.id'],
        );
        expect(spans.upstreamServer.attributes['jsonrpc.request.id']).toBe(
          spans.gatewayClient.attributes['jsonrpc.request.id'],
        );
        // The client knows where it sent the request.
        expect(spans.client.attributes['server.address']).toBe('127.0.0.1');
        expect(spans.client.attributes['server.port']).toBe(gatewayHandle.port);
        expect(spans.gatewayClient.attributes['server.port']).toBe(upstreamHandle.port);
        // A 2025 hop has a session; both sides record the same digest of it, never the id itself.
        for (const [hop, era] of [
          [[spans.client, spans.gatewayServer], downstream],
          [[spans.gatewayClient, spans.upstreamServer], upstream],
        ] as const) {
          const [caller, callee] = hop;
          if (era === legacy) {
            expect(caller.attributes['mcp.session.id']).toMatch(/^[0-9a-f]{32}$/);
            expect(callee.attributes['mcp.session.id']).toBe(caller.attributes['mcp.session.id']);
          } else {
            expect(caller.attributes['mcp.session.id']).toBeUndefined();
            expect(callee.attributes['mcp.session.id']).toBeUndefined();
          }
        }
      });

      test('a failing tool: error.type tool_error and status ERROR on every hop', async () => {
        const { value, agent } = await asAgent(() => connection.callTool(failName, {}));
        expect((value as { isError?: boolean }).isError).toBe(true);
        const spans = hops(agent.traceId, 'mcp__up__fail', 'fail');
        for (const span of [spans.client, spans.gatewayServer, spans.gatewayClient, spans.upstreamServer]) {
          expect(span.attributes['error.type'], span.name).toBe('tool_error');
          expect(span.status.code).toBe(SpanStatusCode.ERROR);
        }
      });

      test('an unknown tool at the gateway: a JSON-RPC error, its code as error.type on both sides', async () => {
        const { agent } = await asAgent(async () => {
          await expect(connection.client('gw')?.callTool('mcp__up__missing', {})).rejects.toThrow();
        });
        const spans = telemetry
          .spans()
          .filter(
            (span) =>
              span.spanContext().traceId === agent.traceId && span.name === 'tools/call mcp__up__missing',
          );
        expect(spans.map((span) => span.kind).sort()).toEqual([SpanKind.SERVER, SpanKind.CLIENT].sort());
        for (const span of spans) {
          expect(span.attributes['error.type']).toBe('-32602');
          expect(span.attributes['rpc.response.status_code']).toBe('-32602');
          expect(span.status.code).toBe(SpanStatusCode.ERROR);
          expect(span.status.message).toMatch(/mcp__up__missing/);
        }
      });

      test('resources/read: one trace client → gateway → upstream, the URI on every span', async () => {
        const { value, agent } = await asAgent(async () =>
          connection.client('gw')?.readResource('memo://note'),
        );
        expect((value?.contents[0] as { text?: string } | undefined)?.text).toBe('a traced note');
        const spans = chainFrom(agent, [
          [SpanKind.CLIENT, 'resources/read'],
          [SpanKind.SERVER, 'resources/read'],
          [SpanKind.CLIENT, 'resources/read'],
          [SpanKind.SERVER, 'resources/read'],
        ]);
        const [client, gatewayServer, gatewayClient, upstreamServer] = spans as [
          ReadableSpan,
          ReadableSpan,
          ReadableSpan,
          ReadableSpan,
        ];
        for (const span of spans) {
          expect(span.attributes).toMatchObject({
            'mcp.method.name': 'resources/read',
            'mcp.resource.uri': 'memo://note',
            'network.transport': 'tcp',
          });
          expect(span.attributes['error.type']).toBeUndefined();
        }
        expect(client.attributes['mcp.protocol.version']).toBe(downstream);
        expect(gatewayServer.attributes['mcp.protocol.version']).toBe(downstream);
        expect(gatewayClient.attributes['mcp.protocol.version']).toBe(upstream);
        expect(upstreamServer.attributes['mcp.protocol.version']).toBe(upstream);
        expect(gatewayServer.attributes['jsonrpc.request.id']).toBe(client.attributes['jsonrpc.request.id']);
        expect(upstreamServer.attributes['jsonrpc.request.id']).toBe(
          gatewayClient.attributes['jsonrpc.request.id'],
        );
        expect(gatewayClient.attributes['server.port']).toBe(upstreamHandle.port);
      });

      test('prompts/get: one trace client → gateway → upstream, each hop naming the prompt as it knows it', async () => {
        const { value, agent } = await asAgent(async () =>
          connection.client('gw')?.getPrompt('mcp__up__greet', { who: 'world' }),
        );
        expect(JSON.stringify(value?.messages)).toContain('Hello, world!');
        const [client, gatewayServer, gatewayClient, upstreamServer] = chainFrom(agent, [
          [SpanKind.CLIENT, 'prompts/get mcp__up__greet'],
          [SpanKind.SERVER, 'prompts/get mcp__up__greet'],
          [SpanKind.CLIENT, 'prompts/get greet'],
          [SpanKind.SERVER, 'prompts/get greet'],
        ]) as [ReadableSpan, ReadableSpan, ReadableSpan, ReadableSpan];
        expect(client.attributes['gen_ai.prompt.name']).toBe('mcp__up__greet');
        expect(gatewayServer.attributes['gen_ai.prompt.name']).toBe('mcp__up__greet');
        expect(gatewayClient.attributes['gen_ai.prompt.name']).toBe('greet');
        expect(upstreamServer.attributes['gen_ai.prompt.name']).toBe('greet');
        for (const span of [client, gatewayServer, gatewayClient, upstreamServer]) {
          expect(span.attributes['mcp.method.name']).toBe('prompts/get');
          expect(span.attributes['gen_ai.operation.name']).toBeUndefined();
        }
      });

      test('completion/complete of a prompt argument: the same chain', async () => {
        const { value, agent } = await asAgent(async () =>
          connection.client('gw')?.complete({
            ref: { type: 'ref/prompt', name: 'mcp__up__greet' },
            argument: { name: 'who', value: 'wo' },
          }),
        );
        expect(value?.completion.values).toEqual(['world']);
        chainFrom(agent, [
          [SpanKind.CLIENT, 'completion/complete'],
          [SpanKind.SERVER, 'completion/complete'],
          [SpanKind.CLIENT, 'completion/complete'],
          [SpanKind.SERVER, 'completion/complete'],
        ]);
      });

      test('duration histograms on both sides, per tool, errors apart', async () => {
        const server = await telemetry.histogram('mcp.server.operation.duration');
        const client = await telemetry.histogram('mcp.client.operation.duration');
        expect(server?.descriptor.unit).toBe('s');
        const count = (histogram: typeof server, tool: string, version: string, failed: boolean) =>
          (histogram?.dataPoints ?? [])
            .filter(
              (point) =>
                point.attributes['gen_ai.tool.name'] === tool &&
                point.attributes['mcp.protocol.version'] === version &&
                (point.attributes['error.type'] === 'tool_error') === failed,
            )
            .reduce((sum, point) => sum + point.value.count, 0);
        // This pairing's calls so far: add once, fail once (the tests above).
        expect(count(server, 'add', upstream, false)).toBeGreaterThanOrEqual(1);
        expect(count(server, 'fail', upstream, true)).toBeGreaterThanOrEqual(1);
        expect(count(server, 'mcp__up__add', downstream, false)).toBeGreaterThanOrEqual(1);
        expect(count(server, 'mcp__up__fail', downstream, true)).toBeGreaterThanOrEqual(1);
        expect(count(client, 'mcp__up__add', downstream, false)).toBeGreaterThanOrEqual(1);
        expect(count(client, 'add', upstream, false)).toBeGreaterThanOrEqual(1);
        expect(count(client, 'fail', upstream, true)).toBeGreaterThanOrEqual(1);
        const before = count(server, 'add', upstream, false);
        await connection.callTool(addName, { a: 1, b: 1 });
        await connection.callTool(addName, { a: 1, b: 2 });
        expect(
          count(await telemetry.histogram('mcp.server.operation.duration'), 'add', upstream, false),
        ).toBe(before + 2);
      });
    });
  }
}
