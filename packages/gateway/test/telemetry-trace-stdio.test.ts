/**
 * One trace across three processes over stdio, as a host runs `switchboard serve`: this process
 * (agent + Switchboard client, in-memory SDK) spawns a gateway, which spawns an upstream
 * Switchboard server; each child exports its spans with the real SDK to a file as each span ends
 * (`fixtures/traced-stdio-process.ts`). In both eras on both hops: agent → client CLIENT →
 * gateway SERVER → gateway CLIENT → upstream SERVER, one trace id, each the parent of the next,
 * `network.transport` `pipe`; a failing tool as `tool_error` on every hop; a resource read and a
 * prompt get the same way — the gateway process registers no context manager, so the trace goes on
 * only because the gateway hands its server span's context to the upstream request itself.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { connectMcp, type McpConnection } from '@switchboard/client';
import { asAgent, registerInMemoryTelemetry } from '@switchboard/test-helpers/telemetry';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RecordedSpan } from './fixtures/traced-stdio-process.js';

const telemetry = registerInMemoryTelemetry();
const script = fileURLToPath(new URL('./fixtures/traced-stdio-process.ts', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'switchboard-trace-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const legacy = '2025-11-25';
const modern = '2026-07-28';

function readSpans(file: string): RecordedSpan[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as RecordedSpan);
}

for (const [downstream, upstream] of [
  [legacy, legacy],
  [modern, modern],
  [legacy, modern],
] as const) {
  describe(`client —${downstream}→ gateway —${upstream}→ upstream, each a child process over stdio`, () => {
    const gatewayFile = join(folder, `gateway-${downstream}-${upstream}.jsonl`);
    const upstreamFile = join(folder, `upstream-${downstream}-${upstream}.jsonl`);
    let connection: McpConnection;

    beforeAll(async () => {
      const upstreamEntry = {
        command: process.execPath,
        args: ['--import', 'tsx', script, 'upstream'],
        env: { SPAN_FILE: upstreamFile },
        protocolVersion: upstream,
      };
      connection = await connectMcp(
        {
          gw: {
            command: process.execPath,
            args: ['--import', 'tsx', script, 'gateway'],
            env: { SPAN_FILE: gatewayFile, GATEWAY_UPSTREAMS: JSON.stringify({ up: upstreamEntry }) },
            protocolVersion: downstream,
          },
        },
        { rawResults: true },
      );
    }, 60_000);
    afterAll(() => connection?.close());

    test('one trace through three processes, each span the parent of the next', async () => {
      const { value, agent } = await asAgent(() =>
        connection.callTool('mcp__gw__mcp__up__add', { a: 40, b: 2 }),
      );
      expect((value as { content: Array<{ text: string }> }).content[0]?.text).toBe('42');
      // Every span ended before its answer was written: the files are complete now.
      const client = telemetry
        .spans()
        .find((span) => span.spanContext().traceId === agent.traceId && span.kind === SpanKind.CLIENT);
      const gateway = readSpans(gatewayFile).filter((span) => span.traceId === agent.traceId);
      const upstreamSpans = readSpans(upstreamFile).filter((span) => span.traceId === agent.traceId);
      const gatewayServer = gateway.find((span) => span.kind === SpanKind.SERVER);
      const gatewayClient = gateway.find((span) => span.kind === SpanKind.CLIENT);
      const upstreamServer = upstreamSpans.find((span) => span.kind === SpanKind.SERVER);
      expect(client?.name).toBe('tools/call mcp__up__add');
      expect(client?.parentSpanContext?.spanId).toBe(agent.spanId);
      expect(gatewayServer?.name).toBe('tools/call mcp__up__add');
      expect(gatewayServer?.parentSpanId).toBe(client?.spanContext().spanId);
      expect(gatewayClient?.name).toBe('tools/call add');
      expect(gatewayClient?.parentSpanId).toBe(gatewayServer?.spanId);
      expect(upstreamServer?.name).toBe('tools/call add');
      expect(upstreamServer?.parentSpanId).toBe(gatewayClient?.spanId);
      expect(client?.attributes['network.transport']).toBe('pipe');
      for (const span of [gatewayServer, gatewayClient, upstreamServer]) {
        expect(span?.attributes['network.transport']).toBe('pipe');
        expect(span?.attributes['mcp.method.name']).toBe('tools/call');
      }
      expect(client?.attributes['mcp.protocol.version']).toBe(downstream);
      expect(gatewayServer?.attributes['mcp.protocol.version']).toBe(downstream);
      expect(gatewayClient?.attributes['mcp.protocol.version']).toBe(upstream);
      expect(upstreamServer?.attributes['mcp.protocol.version']).toBe(upstream);
      expect(gatewayServer?.attributes['jsonrpc.request.id']).toBe(client?.attributes['jsonrpc.request.id']);
      expect(upstreamServer?.attributes['jsonrpc.request.id']).toBe(
        gatewayClient?.attributes['jsonrpc.request.id'],
      );
      // stdio has no session id to record.
      expect(gatewayServer?.attributes['mcp.session.id']).toBeUndefined();
    });

    test('a resource read and a prompt get: one trace through three processes', async () => {
      const gw = connection.client('gw');
      for (const [request, downstreamName, upstreamName] of [
        [() => gw?.readResource('memo://note'), 'resources/read', 'resources/read'],
        [
          () => gw?.getPrompt('mcp__up__greet', { who: 'world' }),
          'prompts/get mcp__up__greet',
          'prompts/get greet',
        ],
      ] as const) {
        const { agent } = await asAgent(async () => request());
        const client = telemetry
          .spans()
          .find(
            (span) =>
              span.spanContext().traceId === agent.traceId &&
              span.kind === SpanKind.CLIENT &&
              span.name === downstreamName,
          );
        const inTrace = (span: RecordedSpan) => span.traceId === agent.traceId;
        const gatewayServer = readSpans(gatewayFile).find(
          (span) => inTrace(span) && span.kind === SpanKind.SERVER && span.name === downstreamName,
        );
        const gatewayClient = readSpans(gatewayFile).find(
          (span) =>
            inTrace(span) &&
            span.kind === SpanKind.CLIENT &&
            span.name === upstreamName &&
            span.parentSpanId === gatewayServer?.spanId,
        );
        const upstreamServer = readSpans(upstreamFile).find(
          (span) => inTrace(span) && span.kind === SpanKind.SERVER && span.name === upstreamName,
        );
        expect(client?.parentSpanContext?.spanId, downstreamName).toBe(agent.spanId);
        expect(gatewayServer?.parentSpanId, downstreamName).toBe(client?.spanContext().spanId);
        expect(gatewayClient, upstreamName).toBeDefined();
        expect(upstreamServer?.parentSpanId, upstreamName).toBe(gatewayClient?.spanId);
        expect(gatewayClient?.attributes['mcp.protocol.version']).toBe(upstream);
      }
    });

    test('a failing tool is tool_error with status ERROR in every process', async () => {
      const { agent } = await asAgent(() => connection.callTool('mcp__gw__mcp__up__fail', {}));
      const spans = [
        ...telemetry
          .spans()
          .filter((span) => span.spanContext().traceId === agent.traceId && span.kind === SpanKind.CLIENT)
          .map((span) => ({ attributes: span.attributes, status: span.status })),
        ...readSpans(gatewayFile).filter((span) => span.traceId === agent.traceId),
        ...readSpans(upstreamFile).filter((span) => span.traceId === agent.traceId),
      ];
      expect(spans).toHaveLength(4);
      for (const span of spans) {
        expect(span.attributes['error.type']).toBe('tool_error');
        expect(span.status.code).toBe(SpanStatusCode.ERROR);
      }
    });
  });
}
