// `relayTool`: a relay's call (a gateway's) gets the server's CallToolResult unchanged whatever the
// set wraps for models, and is counted like every call: metrics, `afterToolCall`, the store.

import { everythingStdio } from '@switchboard/test-helpers';
import { afterEach, describe, expect, it } from 'vitest';
import { connectMcp, type ToolCallEvent } from '../src/index.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

describe('relayTool', () => {
  it('returns the raw result, counted in metrics and reported to afterToolCall', async () => {
    const events: ToolCallEvent[] = [];
    const connection = await connectMcp(
      { everything: everythingStdio() },
      { afterToolCall: (event) => void events.push(event) },
    );
    cleanups.push(() => connection.close());
    // The registry's execute wraps results for models (the default); the relay does not.
    const wrapped = await connection.callTool('mcp__everything__get-tiny-image', {});
    expect(wrapped).not.toHaveProperty('content');
    const raw = await connection.relayTool('everything', 'get-tiny-image', {});
    expect(raw.content?.some((block) => block.type === 'image')).toBe(true);
    const failed = await connection.relayTool('everything', 'get-sum', { a: 'not a number' });
    expect(failed.isError).toBe(true);

    const metrics = connection.metrics();
    expect(metrics.tools.everything?.['get-tiny-image']?.calls).toBe(2);
    expect(metrics.tools.everything?.['get-sum']).toMatchObject({ calls: 1, errors: 1 });
    expect(events.map((event) => [event.tool, event.publicName, event.ok])).toEqual([
      ['get-tiny-image', 'mcp__everything__get-tiny-image', true],
      ['get-tiny-image', 'mcp__everything__get-tiny-image', true],
      ['get-sum', 'mcp__everything__get-sum', false],
    ]);
    await expect(connection.relayTool('nowhere', 'echo', {})).rejects.toMatchObject({
      code: 'SERVER_NOT_FOUND',
    });
  });
});
