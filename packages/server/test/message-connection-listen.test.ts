/**
 * A 2026-07-28 client over a message connection that delivers synchronously (the SDK's
 * `InMemoryTransport`, as tests and embedding hosts use): the server acknowledges the client's
 * `subscriptions/listen` before the client's send has returned. The client must take that
 * acknowledgement — not time out on it (it used to: 10 s at every connect, with a warning, and no
 * `list_changed` afterwards) — and then hear the server's tool changes on that stream.
 */
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { createMcpClient } from '@switchboard/client';
import type { Logger } from '@switchboard/core';
import { createEventLog } from '@switchboard/test-helpers';
import { afterEach, expect, test } from 'vitest';
import { z } from 'zod';
import { createMcpServer, defineTool } from '../src/index.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

const tool = (name: string) =>
  defineTool({ name, description: `The ${name} tool`, input: z.object({}), execute: () => name });

test('a synchronous acknowledgement opens the listen stream, and tool changes arrive on it', async () => {
  const server = createMcpServer({ name: 'in-memory', version: '1.0.0', tools: [tool('one')] });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const connection = await server.connect(serverSide);
  cleanups.push(() => connection.close());
  const warnings: string[] = [];
  const record = (first: unknown, message?: string) => {
    warnings.push(typeof first === 'string' ? first : String(message));
  };
  const logger: Logger = { debug() {}, info() {}, warn: record, error: record };
  const client = await createMcpClient('in-memory', clientSide, { protocolVersion: '2026-07-28', logger });
  cleanups.push(() => client.close());
  expect(client.era).toBe('modern');
  // The listen stream was opened, not given up on.
  expect(warnings.filter((message) => message.includes('subscriptions/listen'))).toEqual([]);

  const changes = createEventLog<string[]>('tool lists');
  client.onToolsChanged((tools) => changes.push(tools.map((listed) => listed.name).sort()));
  server.addTool(tool('two'));
  expect((await changes.atLeast(1)).at(-1)).toEqual(['one', 'two']);
});
