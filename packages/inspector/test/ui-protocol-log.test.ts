/** The protocol log's ring buffer: bounded, oldest dropped, answers named after their requests, batched to listeners. */
import { describe, expect, it } from 'vitest';
import { createProtocolLog } from '../src/protocol-log.js';
import type { UiLogEntry } from '../src/ui-api.js';

describe('the protocol log', () => {
  it('keeps the newest entries, classifies them, and names a response after its request', () => {
    const log = createProtocolLog({ capacity: 3 });
    log.append('a', { direction: 'out', message: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    log.append('a', { direction: 'out', message: { jsonrpc: '2.0', method: 'notifications/initialized' } });
    // A server's own request, answered by us: the answer goes out.
    log.append('b', {
      direction: 'in',
      message: { jsonrpc: '2.0', id: 1, method: 'elicitation/create', params: {} },
    });
    log.append('b', { direction: 'out', message: { jsonrpc: '2.0', id: 1, result: { action: 'cancel' } } });
    log.append('a', {
      direction: 'in',
      message: { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'no' } },
    });
    expect(log.size).toBe(3);
    const entries = log.entries();
    expect(entries.map((entry) => entry.seq)).toEqual([3, 4, 5]);
    expect(entries.map((entry) => [entry.server, entry.direction, entry.type, entry.method])).toEqual([
      ['b', 'in', 'request', 'elicitation/create'],
      ['b', 'out', 'response', 'elicitation/create'],
      ['a', 'in', 'error', 'tools/list'],
    ]);
    expect(log.entries({ server: 'a' }).map((entry) => entry.seq)).toEqual([5]);
    expect(log.entries({ since: 4 }).map((entry) => entry.seq)).toEqual([5]);
    expect(log.entries({ limit: 2 }).map((entry) => entry.seq)).toEqual([4, 5]);
  });

  it('hands new entries to listeners in batches', () => {
    const log = createProtocolLog({ batchMs: 10_000 });
    const batches: UiLogEntry[][] = [];
    log.subscribe((entries) => batches.push(entries));
    for (let id = 1; id <= 5; id++)
      log.append('a', { direction: 'out', message: { jsonrpc: '2.0', id, method: 'ping' } });
    expect(batches).toEqual([]);
    log.flush();
    expect(batches.map((batch) => batch.length)).toEqual([5]);
  });
});
