// The last progress notification of a call arrives before its result, even when the server sends
// both at once (one read on stdio, one chunk of an HTTP stream): the SDK hands notifications to
// their handlers a microtask later than responses, which would drop the progress sent last.

import { everythingStdio } from '@switchboard/test-helpers';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpClient, type McpClient } from '../src/index.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

describe('progress before the result', () => {
  it('every progress notification of server-everything reaches onProgress (stdio)', async () => {
    const connected: McpClient = await createMcpClient('everything', everythingStdio());
    cleanups.push(() => connected.close());
    for (let round = 0; round < 3; round++) {
      const seen: number[] = [];
      await connected.callTool(
        'trigger-long-running-operation',
        { duration: 0.15, steps: 3 },
        { onProgress: (update) => seen.push(update.progress) },
      );
      expect(seen).toEqual([1, 2, 3]);
    }
  });
});
