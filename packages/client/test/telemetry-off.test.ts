/**
 * No telemetry, no trace context: with `@opentelemetry/api` installed but no provider registered
 * (the no-op global), and with the package not installed at all (an optional peer), a tool call
 * still works and a real server sees no `traceparent` in its request's `_meta`, in both eras.
 */
import { spawnSync } from 'node:child_process';
import { trace } from '@opentelemetry/api';
import { expect, test } from 'vitest';
import { connectMcp } from '../src/index.js';
import { fixture } from './helpers/servers.js';

type CallResult = { content: Array<{ text: string }> };

for (const pin of ['2025-11-25', '2026-07-28']) {
  test(`no provider registered (${pin}): the server sees no trace context`, async () => {
    // Nothing registered: the global tracer provider is the API's no-op proxy.
    expect(trace.getTracer('probe').startSpan('probe').isRecording()).toBe(false);
    const connection = await connectMcp(
      { v2: { command: process.execPath, args: [fixture('sdk-v2-server.mjs')], protocolVersion: pin } },
      { rawResults: true },
    );
    try {
      const result = (await connection.callTool(
        'mcp__v2__request_meta',
        {},
        { onProgress: () => {} },
      )) as CallResult;
      const meta = JSON.parse(result.content[0]?.text ?? '{}').meta;
      // The rest of `_meta` is sent as before.
      expect(Object.keys(meta)).toEqual(['progressToken']);
    } finally {
      await connection.close();
    }
  }, 30_000);
}

test('without @opentelemetry/api installed, calls work in both eras and carry no trace context', () => {
  const run = spawnSync(process.execPath, [fixture('without-opentelemetry.mjs')], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(run.stderr).toBe('');
  const report = JSON.parse(run.stdout.trim());
  expect(report.apiLoadable).toBe(false);
  expect(report.seen).toEqual({ '2025-11-25': ['progressToken'], '2026-07-28': ['progressToken'] });
}, 60_000);
