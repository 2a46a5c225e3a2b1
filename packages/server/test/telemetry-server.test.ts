/**
 * Server telemetry beyond the gateway trace, with the real SDK registered globally: a SERVER span
 * for every method (span names with the prompt as target, never the resource URI; the URI as
 * an attribute), a new trace when the request carries no (or a malformed) trace context, the
 * providers of the `telemetry` option instead of the global ones, and `telemetry: false`.
 */
import { SpanKind } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { connectMcp } from '@switchboard/client';
import { envelope, post } from '@switchboard/test-helpers';
import { registerInMemoryTelemetry } from '@switchboard/test-helpers/telemetry';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createMcpServer, defineTool, type McpServer, type ServeHandle, serve } from '../src/index.js';

const telemetry = registerInMemoryTelemetry();

function withCatalog(options: Partial<Parameters<typeof createMcpServer>[0]> = {}): McpServer {
  return createMcpServer({
    name: 'catalog',
    version: '1.0.0',
    resources: [{ uri: 'memo://one', name: 'one', read: () => 'first memo' }],
    prompts: [{ name: 'greet', get: () => 'Hello!' }],
    ...options,
  });
}

describe('a server with resources and prompts, traced', () => {
  let handle: ServeHandle;
  beforeAll(async () => {
    handle = await serve(withCatalog(), { transport: { type: 'http', port: 0 } });
  });
  afterAll(() => handle?.close());

  test('every method gets a SERVER span named by the conventions', async () => {
    const connection = await connectMcp({ s: { url: handle.url as string } }, { telemetry: false });
    try {
      telemetry.reset();
      const client = connection.client('s');
      await client?.listTools({ refresh: true });
      await client?.readResource('memo://one');
      await client?.getPrompt('greet');
      const spans = telemetry.spans().filter((span) => span.kind === SpanKind.SERVER);
      const byName = new Map(spans.map((span) => [span.name, span]));
      expect(byName.get('tools/list')?.attributes['mcp.method.name']).toBe('tools/list');
      const read = byName.get('resources/read');
      expect(read?.attributes['mcp.resource.uri']).toBe('memo://one');
      const prompt = byName.get('prompts/get greet');
      expect(prompt?.attributes['gen_ai.prompt.name']).toBe('greet');
      expect(prompt?.attributes['gen_ai.operation.name']).toBeUndefined();
      // No trace context came in (the client sends none): each request starts its own trace.
      for (const span of spans) expect(span.parentSpanContext).toBeUndefined();
    } finally {
      await connection.close();
    }
  });

  test('a malformed traceparent starts a new trace instead of failing the request', async () => {
    telemetry.reset();
    const answer = await post(handle.url as string, 'tools/list', {
      _meta: envelope({}, { traceparent: '00-not-a-trace-context-01', tracestate: 'x=1' }),
    });
    expect(answer.status).toBe(200);
    expect(answer.body.result?.tools).toBeDefined();
    const [span] = telemetry.spans();
    expect(span?.name).toBe('tools/list');
    expect(span?.parentSpanContext).toBeUndefined();
  });

  test('a valid traceparent (and tracestate) from any client makes the span its child', async () => {
    telemetry.reset();
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const answer = await post(handle.url as string, 'tools/list', {
      _meta: envelope(
        {},
        { traceparent: `00-${traceId}-00f067aa0ba902b7-01`, tracestate: 'rojo=00f067aa0ba902b7' },
      ),
    });
    expect(answer.status).toBe(200);
    const [span] = telemetry.spans();
    expect(span?.spanContext().traceId).toBe(traceId);
    expect(span?.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(span?.parentSpanContext?.isRemote).toBe(true);
    expect(span?.spanContext().traceState?.get('rojo')).toBe('00f067aa0ba902b7');
  });
});

test('telemetry: false makes no span though a provider is registered', async () => {
  const handle = await serve(withCatalog({ telemetry: false }), { transport: { type: 'http', port: 0 } });
  const connection = await connectMcp({ s: { url: handle.url as string } }, { telemetry: false });
  try {
    telemetry.reset();
    await connection.client('s')?.listTools({ refresh: true });
    expect(telemetry.spans()).toHaveLength(0);
  } finally {
    await connection.close();
    await handle.close();
  }
});

test('the providers of the telemetry option get the spans, the global ones do not', async () => {
  const exporter = new InMemorySpanExporter();
  const own = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const upstream = createMcpServer({
    name: 'own',
    version: '1.0.0',
    tools: [
      defineTool({
        name: 'add',
        description: 'Adds two numbers',
        input: z.object({ a: z.number(), b: z.number() }),
        execute: ({ a, b }) => String(a + b),
      }),
    ],
    telemetry: { tracerProvider: own },
  });
  const handle = await serve(upstream, { transport: { type: 'http', port: 0 } });
  const connection = await connectMcp({ s: { url: handle.url as string } }, { rawResults: true });
  try {
    telemetry.reset();
    exporter.reset();
    await connection.client('s')?.callTool('add', { a: 1, b: 2 });
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(['tools/call add']);
    // Only the client's span reached the global provider; the server's went to its own.
    expect(telemetry.spans().map((span) => span.kind)).toEqual([SpanKind.CLIENT]);
    expect(exporter.getFinishedSpans()[0]?.parentSpanContext?.spanId).toBe(
      telemetry.spans()[0]?.spanContext().spanId,
    );
  } finally {
    await connection.close();
    await handle.close();
  }
});
