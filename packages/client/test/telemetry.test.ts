/**
 * Client telemetry with the real OpenTelemetry SDK registered globally: a CLIENT span per tool
 * call with the MCP semantic-convention attributes, a child of the agent's active span, whose
 * context reaches a real server (the SDK v2 fixture answers with the `_meta` it received) in
 * both eras over stdio; errors as `error.type` and status ERROR; the duration histogram per tool.
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connectMcp, type McpConnection } from '../src/index.js';
import { fixture, sdkV2Stdio } from './helpers/servers.js';
import { createInMemoryTelemetry, parentOf, registerInMemoryTelemetry } from './helpers/telemetry.js';

const telemetry = registerInMemoryTelemetry();
const tracer = trace.getTracer('test-agent');

type CallResult = { content: Array<{ type: string; text: string }>; isError?: boolean };

/** The `_meta` the server saw, from the fixture's `request_meta` tool. */
function metaSeen(result: unknown): Record<string, unknown> {
  return JSON.parse((result as CallResult).content[0]?.text ?? '{}').meta ?? {};
}

/** Runs `work` inside an active agent span; resolves with its result and the agent span's id. */
async function asAgent<T>(
  work: () => Promise<T>,
): Promise<{ value: T; agentSpanId: string; traceId: string }> {
  return tracer.startActiveSpan('agent turn', async (span) => {
    try {
      const value = await work();
      return { value, agentSpanId: span.spanContext().spanId, traceId: span.spanContext().traceId };
    } finally {
      span.end();
    }
  });
}

const eras = [
  { era: 'legacy', pin: '2025-11-25', version: '2025-11-25' },
  { era: 'modern', pin: undefined, version: '2026-07-28' },
] as const;

for (const { era, pin, version } of eras) {
  describe(`tool calls over stdio, ${era} era`, () => {
    let connection: McpConnection;
    beforeAll(async () => {
      connection = await connectMcp({ v2: sdkV2Stdio(pin) }, { rawResults: true });
    }, 30_000);
    afterAll(() => connection?.close());

    test('one CLIENT span per call, a child of the agent span, its context at the server', async () => {
      telemetry.reset();
      const { value, agentSpanId, traceId } = await asAgent(() =>
        connection.callTool('mcp__v2__request_meta', {}),
      );
      const [span, ...others] = telemetry.spans().filter((candidate) => candidate.kind === SpanKind.CLIENT);
      expect(others).toHaveLength(0);
      if (span === undefined) throw new Error('no client span');
      expect(span.name).toBe('tools/call request_meta');
      expect(span.spanContext().traceId).toBe(traceId);
      expect(parentOf(span)).toBe(agentSpanId);
      expect(span.attributes).toMatchObject({
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': 'request_meta',
        'gen_ai.operation.name': 'execute_tool',
        'mcp.protocol.version': version,
        'network.transport': 'pipe',
      });
      expect(span.attributes['jsonrpc.request.id']).toMatch(/^\d+$/);
      expect(span.attributes['error.type']).toBeUndefined();
      expect(span.status.code).toBe(SpanStatusCode.UNSET);
      // The server received the client span as its parent (W3C traceparent in params._meta).
      expect(metaSeen(value).traceparent).toBe(`00-${traceId}-${span.spanContext().spanId}-01`);
    });

    test('the trace context is merged into the _meta the call already carries', async () => {
      const progress: unknown[] = [];
      const result = await connection.callTool(
        'mcp__v2__request_meta',
        {},
        { onProgress: (p) => progress.push(p) },
      );
      const meta = metaSeen(result);
      expect(meta.progressToken).toBeDefined();
      expect(meta.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    });

    test('a call with handlers of its own carries the trace context too', async () => {
      telemetry.reset();
      const result = await connection.callTool(
        'mcp__v2__request_meta',
        {},
        { onElicitation: async () => ({ action: 'decline' }) },
      );
      const [span] = telemetry.spans();
      expect(metaSeen(result).traceparent).toContain(span?.spanContext().spanId);
      // The span learns the id its request went out with.
      expect(span?.attributes['jsonrpc.request.id']).toMatch(/^\d+$/);
    });

    test('a tool error (isError) is error.type tool_error with status ERROR', async () => {
      telemetry.reset();
      const result = (await connection
        .client('v2')
        ?.callTool('add', { a: 'not a number', b: 1 })) as CallResult;
      expect(result.isError).toBe(true);
      const span = telemetry.spans().find((candidate) => candidate.name === 'tools/call add');
      expect(span?.attributes['error.type']).toBe('tool_error');
      expect(span?.status.code).toBe(SpanStatusCode.ERROR);
    });

    test('a JSON-RPC error is error.type and rpc.response.status_code the code, status ERROR with its message', async () => {
      telemetry.reset();
      await expect(connection.client('v2')?.callTool('no_such_tool', {})).rejects.toThrow();
      const span = telemetry.spans().find((candidate) => candidate.name === 'tools/call no_such_tool');
      expect(span?.attributes['error.type']).toBe('-32602');
      expect(span?.attributes['rpc.response.status_code']).toBe('-32602');
      expect(span?.status.code).toBe(SpanStatusCode.ERROR);
      expect(span?.status.message).toMatch(/no_such_tool/);
    });

    test('mcp.client.operation.duration counts calls and errors per tool, in seconds', async () => {
      const before = await telemetry.histogram('mcp.client.operation.duration');
      const count = (tool: string, failed: boolean) =>
        (before?.dataPoints ?? [])
          .filter(
            (point) =>
              point.attributes['gen_ai.tool.name'] === tool &&
              point.attributes['mcp.protocol.version'] === version &&
              (point.attributes['error.type'] !== undefined) === failed,
          )
          .reduce((sum, point) => sum + point.value.count, 0);
      const echoBefore = count('echo', false);
      const addErrorsBefore = count('add', true);
      for (let index = 0; index < 3; index++) await connection.callTool('mcp__v2__echo', { message: 'hi' });
      await connection.client('v2')?.callTool('add', { a: 'x', b: 1 });
      const after = await telemetry.histogram('mcp.client.operation.duration');
      expect(after?.descriptor.unit).toBe('s');
      const points = (tool: string, failed: boolean) =>
        (after?.dataPoints ?? []).filter(
          (point) =>
            point.attributes['gen_ai.tool.name'] === tool &&
            point.attributes['mcp.protocol.version'] === version &&
            (point.attributes['error.type'] !== undefined) === failed,
        );
      const echo = points('echo', false);
      expect(echo.reduce((sum, point) => sum + point.value.count, 0)).toBe(echoBefore + 3);
      expect(echo[0]?.attributes).toMatchObject({
        'mcp.method.name': 'tools/call',
        'gen_ai.operation.name': 'execute_tool',
        'network.transport': 'pipe',
      });
      // Seconds: a stdio echo takes well under a second.
      expect(echo[0]?.value.max).toBeLessThan(1);
      const addErrors = points('add', true);
      expect(addErrors.reduce((sum, point) => sum + point.value.count, 0)).toBe(addErrorsBefore + 1);
      expect(addErrors[0]?.attributes['error.type']).toBe('tool_error');
    });
  });
}

describe('telemetry options', () => {
  test('providers passed in options get the spans; the global ones do not', async () => {
    const own = createInMemoryTelemetry();
    const connection = await connectMcp(
      { v2: { command: process.execPath, args: [fixture('sdk-v2-server.mjs')] } },
      {
        rawResults: true,
        telemetry: { tracerProvider: own.tracerProvider, meterProvider: own.meterProvider },
      },
    );
    try {
      // The tool list read while connecting went there too, and its trust review.
      expect(own.spans().map((span) => span.name)).toEqual(['tools/list', 'trust review v2']);
      own.reset();
      telemetry.reset();
      const result = await connection.callTool('mcp__v2__request_meta', {});
      const [span, ...others] = own.spans();
      expect(others).toHaveLength(0);
      expect(span?.name).toBe('tools/call request_meta');
      expect(metaSeen(result).traceparent).toContain(span?.spanContext().spanId);
      expect(telemetry.spans().filter((candidate) => candidate.kind === SpanKind.CLIENT)).toHaveLength(0);
      const histogram = await own.histogram('mcp.client.operation.duration');
      const calls = histogram?.dataPoints.filter(
        (point) => point.attributes['mcp.method.name'] === 'tools/call',
      );
      expect(calls?.map((point) => point.value.count)).toEqual([1]);
    } finally {
      await connection.close();
    }
  }, 30_000);

  test('telemetry: false sends no trace context and makes no span, even with a provider registered', async () => {
    const connection = await connectMcp(
      { v2: { command: process.execPath, args: [fixture('sdk-v2-server.mjs')] } },
      { rawResults: true, telemetry: false },
    );
    try {
      telemetry.reset();
      const result = await connection.callTool('mcp__v2__request_meta', {});
      expect(metaSeen(result).traceparent).toBeUndefined();
      expect(telemetry.spans()).toHaveLength(0);
    } finally {
      await connection.close();
    }
  }, 30_000);

  test('traceContext names the parent explicitly (no active span needed)', async () => {
    const connection = await connectMcp(
      { v2: { command: process.execPath, args: [fixture('sdk-v2-server.mjs')] } },
      { rawResults: true },
    );
    try {
      telemetry.reset();
      const parent = tracer.startSpan('explicit parent');
      const parentContext = trace.setSpan(ROOT_CONTEXT, parent);
      await connection.callTool('mcp__v2__echo', { message: 'x' }, { traceContext: parentContext });
      parent.end();
      const span = telemetry.spans().find((candidate) => candidate.name === 'tools/call echo');
      expect(parentOf(span as NonNullable<typeof span>)).toBe(parent.spanContext().spanId);
    } finally {
      await connection.close();
    }
  }, 30_000);
});
