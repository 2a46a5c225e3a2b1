/**
 * No telemetry, no trace context: with `@opentelemetry/api` installed but no provider registered
 * (the no-op global), and with the package not installed at all (an optional peer), a tool call, a
 * resource read and a prompt get still work and a real server sees no `traceparent` in their
 * `_meta`, in both eras.
 */
import { spawnSync } from 'node:child_process';
import { trace } from '@opentelemetry/api';
import { expect, test } from 'vitest';
import { connectMcp, type McpClient } from '../src/index.js';
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
      // Nor on the other requests: a read and a prompt arrive with no `_meta` at all.
      const client = connection.client('v2') as McpClient;
      const read = await client.readResource('meta://request');
      expect(JSON.parse((read.contents[0] as { text: string }).text).meta).toBeNull();
      const prompt = await client.getPrompt('request_meta');
      expect(JSON.parse((prompt.messages[0] as { content: { text: string } }).content.text).meta).toBeNull();
    } finally {
      await connection.close();
    }
  }, 30_000);
}

test('without @opentelemetry/api installed, calls, reads and gets work in both eras and carry no trace context', () => {
  const run = spawnSync(process.execPath, [fixture('without-opentelemetry.mjs')], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(run.stderr).toBe('');
  const report = JSON.parse(run.stdout.trim());
  expect(report.apiLoadable).toBe(false);
  const seen = { call: ['progressToken'], read: [], prompt: [] };
  expect(report.seen).toEqual({ '2025-11-25': seen, '2026-07-28': seen });
}, 60_000);
