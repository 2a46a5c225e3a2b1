/**
 * Client telemetry of the requests other than tool calls, with the real OpenTelemetry SDK
 * registered globally, against a real server over stdio in both eras (the SDK v2 fixture answers
 * `meta://request` and the prompt `request_meta` with the `_meta` it received): one CLIENT span per
 * request, named `{method}` or `prompts/get {prompt}` (never the resource URI), with the
 * semantic-convention attributes, a child of the agent span or of `traceContext`, its context at
 * the server; failures as `error.type`; the duration histogram per method.
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connectMcp, type McpClient, type McpConnection } from '../src/index.js';
import { sdkV2Stdio } from './helpers/servers.js';
import { parentOf, registerInMemoryTelemetry } from './helpers/telemetry.js';

const telemetry = registerInMemoryTelemetry();
const tracer = trace.getTracer('test-agent');

/** Runs `work` inside an active agent span; resolves with its result and the agent span's context. */
async function asAgent<T>(
  work: () => Promise<T>,
): Promise<{ value: T; agent: { traceId: string; spanId: string } }> {
  return tracer.startActiveSpan('agent turn', async (span) => {
    try {
      return { value: await work(), agent: span.spanContext() };
    } finally {
      span.end();
    }
  });
}

/** The one CLIENT span named `name`. */
function clientSpan(name: string): ReadableSpan {
  const found = telemetry.spans().filter((span) => span.kind === SpanKind.CLIENT && span.name === name);
  expect(found, name).toHaveLength(1);
  return found[0] as ReadableSpan;
}

/** The `_meta` the fixture's server saw, from its answer's text. */
function metaIn(text: string | undefined): Record<string, unknown> {
  return JSON.parse(text ?? '{}').meta ?? {};
}

const eras = [
  { era: 'legacy', pin: '2025-11-25', version: '2025-11-25' },
  { era: 'modern', pin: undefined, version: '2026-07-28' },
] as const;

for (const { era, pin, version } of eras) {
  describe(`requests other than tool calls over stdio, ${era} era`, () => {
    let connection: McpConnection;
    let client: McpClient;
    beforeAll(async () => {
      connection = await connectMcp({ v2: sdkV2Stdio(pin) }, { rawResults: true });
      client = connection.client('v2') as McpClient;
    }, 30_000);
    afterAll(() => connection?.close());

    test('each list is one CLIENT span named by its method, with the common attributes and no target', async () => {
      telemetry.reset();
      const { agent } = await asAgent(async () => {
        await client.listResources();
        await client.listResourceTemplates();
        await client.listPrompts();
        await client.listTools({ refresh: true });
      });
      for (const method of ['resources/list', 'resources/templates/list', 'prompts/list', 'tools/list']) {
        const span = clientSpan(method);
        expect(span.spanContext().traceId).toBe(agent.traceId);
        expect(parentOf(span)).toBe(agent.spanId);
        expect(span.attributes).toMatchObject({
          'mcp.method.name': method,
          'mcp.protocol.version': version,
          'network.transport': 'pipe',
        });
        expect(span.attributes['jsonrpc.request.id']).toMatch(/^\d+$/);
        for (const absent of [
          'gen_ai.tool.name',
          'gen_ai.prompt.name',
          'gen_ai.operation.name',
          'mcp.resource.uri',
        ])
          expect(span.attributes[absent], `${method} ${absent}`).toBeUndefined();
        expect(span.status.code).toBe(SpanStatusCode.UNSET);
      }
    });

    test('resources/read: the URI an attribute, not in the name; its context at the server', async () => {
      telemetry.reset();
      const { value, agent } = await asAgent(() => client.readResource('meta://request'));
      const span = clientSpan('resources/read');
      expect(parentOf(span)).toBe(agent.spanId);
      expect(span.attributes).toMatchObject({
        'mcp.method.name': 'resources/read',
        'mcp.resource.uri': 'meta://request',
        'mcp.protocol.version': version,
      });
      const seen = metaIn((value.contents[0] as { text?: string }).text);
      expect(seen.traceparent).toBe(`00-${agent.traceId}-${span.spanContext().spanId}-01`);
    });

    test('prompts/get: `prompts/get {prompt}` with gen_ai.prompt.name; its context at the server', async () => {
      telemetry.reset();
      const { value, agent } = await asAgent(() => client.getPrompt('request_meta'));
      const span = clientSpan('prompts/get request_meta');
      expect(parentOf(span)).toBe(agent.spanId);
      expect(span.attributes).toMatchObject({
        'mcp.method.name': 'prompts/get',
        'gen_ai.prompt.name': 'request_meta',
        'mcp.protocol.version': version,
        'network.transport': 'pipe',
      });
      expect(span.attributes['gen_ai.operation.name']).toBeUndefined();
      const content = value.messages[0]?.content as { text?: string };
      expect(metaIn(content.text).traceparent).toBe(`00-${agent.traceId}-${span.spanContext().spanId}-01`);
    });

    test('the connection-level read and get go the same way (the active context is the parent)', async () => {
      telemetry.reset();
      const { agent } = await asAgent(async () => {
        await connection.readResource('config://app');
        const [prompt] = await connection.listPrompts();
        await connection.getPrompt(prompt?.name as string);
      });
      expect(parentOf(clientSpan('resources/read'))).toBe(agent.spanId);
      expect(clientSpan('resources/read').attributes['mcp.resource.uri']).toBe('config://app');
      // The server's own name of the prompt, not the connection's namespaced one.
      expect(parentOf(clientSpan('prompts/get request_meta'))).toBe(agent.spanId);
    });

    test('traceContext names the parent of a read explicitly (no active span needed)', async () => {
      telemetry.reset();
      const parent = tracer.startSpan('explicit parent');
      const result = await client.readResource('meta://request', {
        traceContext: trace.setSpan(ROOT_CONTEXT, parent),
      });
      parent.end();
      const span = clientSpan('resources/read');
      expect(parentOf(span)).toBe(parent.spanContext().spanId);
      expect(metaIn((result.contents[0] as { text?: string }).text).traceparent).toContain(
        span.spanContext().spanId,
      );
    });

    test('ping is spanned too: `ping` (2025), `server/discover` (2026-07-28)', async () => {
      telemetry.reset();
      await client.ping();
      const span = clientSpan(era === 'legacy' ? 'ping' : 'server/discover');
      expect(span.attributes['mcp.method.name']).toBe(era === 'legacy' ? 'ping' : 'server/discover');
    });

    test('a failed read: error.type the JSON-RPC code, status ERROR', async () => {
      telemetry.reset();
      await expect(client.readResource('meta://missing')).rejects.toThrow();
      const span = clientSpan('resources/read');
      expect(span.attributes['mcp.resource.uri']).toBe('meta://missing');
      expect(span.attributes['error.type']).toMatch(/^-32\d{3}$/);
      expect(span.attributes['rpc.response.status_code']).toBe(span.attributes['error.type']);
      expect(span.status.code).toBe(SpanStatusCode.ERROR);
    });

    test('mcp.client.operation.duration has points per method and prompt, no URI in them', async () => {
      const count = async (method: string, extra: Record<string, string> = {}) =>
        ((await telemetry.histogram('mcp.client.operation.duration'))?.dataPoints ?? [])
          .filter(
            (point) =>
              point.attributes['mcp.method.name'] === method &&
              point.attributes['mcp.protocol.version'] === version &&
              point.attributes['error.type'] === undefined &&
              Object.entries(extra).every(([key, value]) => point.attributes[key] === value),
          )
          .reduce((sum, point) => sum + point.value.count, 0);
      const reads = await count('resources/read');
      const gets = await count('prompts/get', { 'gen_ai.prompt.name': 'request_meta' });
      await client.readResource('config://app');
      await client.getPrompt('request_meta');
      expect(await count('resources/read')).toBe(reads + 1);
      expect(await count('prompts/get', { 'gen_ai.prompt.name': 'request_meta' })).toBe(gets + 1);
      const points = (await telemetry.histogram('mcp.client.operation.duration'))?.dataPoints ?? [];
      expect(points.some((point) => 'mcp.resource.uri' in point.attributes)).toBe(false);
    });
  });
}
