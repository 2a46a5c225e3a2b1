/**
 * Calls that come through no MCP wire — the REST endpoint and `McpServer.callTool` — take the
 * dispatcher like a JSON-RPC call: the same SERVER span (`tools/call {tool}`, the tool's
 * attributes, errors by their JSON-RPC code) and the same `mcp.server.operation.duration`
 * measurement, with the real OpenTelemetry SDK's in-memory exporters registered globally.
 */
import { SpanKind } from '@opentelemetry/api';
import type { HistogramMetricData } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { envelope, post } from '@switchboard/test-helpers';
import { asAgent, registerInMemoryTelemetry } from '@switchboard/test-helpers/telemetry';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { defineTool, type McpServer, type ServeHandle, ServerErrorCode, serve } from '../src/index.js';
import { createTracedUpstream } from './fixtures/traced-upstream.js';

const telemetry = registerInMemoryTelemetry();

/** Measurements of `tool` in the server's duration histogram; `failed`: those with `error.type`. */
function countOf(histogram: HistogramMetricData | undefined, tool: string, failed = false): number {
  return (histogram?.dataPoints ?? [])
    .filter(
      (point) =>
        point.attributes['gen_ai.tool.name'] === tool &&
        (point.attributes['error.type'] !== undefined) === failed,
    )
    .reduce((sum, point) => sum + point.value.count, 0);
}

const serverDurations = () => telemetry.histogram('mcp.server.operation.duration');

function serverSpans(): ReadableSpan[] {
  return telemetry.spans().filter((span) => span.kind === SpanKind.SERVER);
}

describe('REST and callTool are traced and measured like a JSON-RPC call', () => {
  let server: McpServer;
  let handle: ServeHandle;
  let restUrl: string;
  beforeAll(async () => {
    server = createTracedUpstream();
    server.addTool(
      defineTool({
        name: 'ask',
        description: 'Asks the user',
        input: z.object({}),
        execute: async (_args, context) => {
          await context.elicit({ message: 'name?', requestedSchema: { type: 'object', properties: {} } });
          return 'asked';
        },
      }),
    );
    handle = await serve(server, { transport: { type: 'http', port: 0, restEndpoint: true } });
    restUrl = (handle.url as string).replace('/mcp', '/v1/tool-execute');
  });
  afterAll(() => handle?.close());

  test('the JSON-RPC call, for comparison: one SERVER span, one measurement', async () => {
    const before = countOf(await serverDurations(), 'add');
    telemetry.reset();
    const answer = await post(handle.url as string, 'tools/call', {
      name: 'add',
      arguments: { a: 1, b: 2 },
      _meta: envelope(),
    });
    expect(answer.body.result?.content).toEqual([{ type: 'text', text: '3' }]);
    const [span] = serverSpans();
    expect(span?.name).toBe('tools/call add');
    expect(span?.attributes['network.transport']).toBe('tcp');
    expect(countOf(await serverDurations(), 'add')).toBe(before + 1);
  });

  test('a REST call: the same span (over tcp) and measurement', async () => {
    const before = countOf(await serverDurations(), 'add');
    telemetry.reset();
    const response = await fetch(restUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tool: 'add', input: { a: 2, b: 3 } }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ content: [{ type: 'text', text: '5' }] });
    const spans = serverSpans();
    expect(spans.map((span) => span.name)).toEqual(['tools/call add']);
    expect(spans[0]?.attributes['gen_ai.tool.name']).toBe('add');
    expect(spans[0]?.attributes['gen_ai.operation.name']).toBe('execute_tool');
    expect(spans[0]?.attributes['network.transport']).toBe('tcp');
    expect(countOf(await serverDurations(), 'add')).toBe(before + 1);
  });

  test('a REST call of an unknown tool: 404, and the span records the JSON-RPC code a wire call gets', async () => {
    telemetry.reset();
    const response = await fetch(restUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tool: 'nope', input: {} }),
    });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
      ServerErrorCode.ToolNotFound,
    );
    const [span] = serverSpans();
    expect(span?.name).toBe('tools/call nope');
    expect(span?.attributes['error.type']).toBe('-32602');
  });

  test('McpServer.callTool: the same span (no wire), a child of the caller’s active span, and measured', async () => {
    const before = countOf(await serverDurations(), 'add');
    telemetry.reset();
    const { value, agent } = await asAgent(() => server.callTool('add', { a: 4, b: 5 }));
    expect(value.content).toEqual([{ type: 'text', text: '9' }]);
    const [span] = serverSpans();
    expect(span?.name).toBe('tools/call add');
    expect(span?.attributes['network.transport']).toBeUndefined();
    expect(span?.spanContext().traceId).toBe(agent.traceId);
    expect(span?.parentSpanContext?.spanId).toBe(agent.spanId);
    expect(countOf(await serverDurations(), 'add')).toBe(before + 1);
  });

  test('a tool that asks for input: REST and callTool are told they have no client to ask', async () => {
    const response = await fetch(restUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tool: 'ask', input: {} }),
    });
    expect(response.status).toBe(422);
    const rest = (await response.json()) as { content: Array<{ text: string }> };
    expect(rest.content[0]?.text).toContain('this REST call has no client to answer');
    const local = await server.callTool('ask', {});
    expect(local.isError).toBe(true);
    expect((local.content[0] as { text: string }).text).toContain('in-process call (callTool) has no client');
  });

  test('McpServer.callTool of an unknown tool still rejects with TOOL_NOT_FOUND, and is measured as failed', async () => {
    const before = countOf(await serverDurations(), 'missing', true);
    await expect(server.callTool('missing', {})).rejects.toMatchObject({
      code: ServerErrorCode.ToolNotFound,
    });
    expect(countOf(await serverDurations(), 'missing', true)).toBe(before + 1);
  });
});
