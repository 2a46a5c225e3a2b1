/**
 * The tool context built on first use (`ToolContextHandle`): a tool whose `execute` declares only
 * its arguments gets a stand-in that builds the context when touched. Such a tool can still reach
 * its context through `arguments` or a rest parameter, so the stand-in must behave as the context
 * does: progress and logs reach the client in both eras, spread keeps `signal` and the channels,
 * and a context first touched after the call was answered sends nothing.
 */
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { CallAbort } from '../src/cancellation/call-abort.js';
import { createMcpServer, defineTool, type ServeHandle, serve, type ToolContext } from '../src/index.js';
import type { InboundRequest } from '../src/request/inbound-request.js';
import { ToolContextHandle } from '../src/tools/tool-context.js';

/** Contexts the tools saw, by tool, for the checks after the call. */
const seen = new Map<string, ToolContext>();

const server = createMcpServer({
  name: 'context-handle',
  version: '1.0.0',
  tools: [
    defineTool({
      name: 'through_arguments',
      description: 'declares one parameter, reports progress through arguments[1]',
      input: z.object({ steps: z.number() }),
      // A classic function: `arguments` is the only way to the context it does not declare.
      execute: async function (this: unknown, { steps }: { steps: number }) {
        // biome-ignore lint/complexity/noArguments: what this test is about
        const context = arguments[1] as ToolContext;
        for (let step = 1; step <= steps; step++) await context.progress(step, steps);
        return `era ${context.era}, request ${String(context.requestId)}`;
      },
    }),
    defineTool({
      name: 'through_rest',
      description: 'takes a rest parameter, copies the context with spread',
      execute: (...rest: unknown[]) => {
        const copy = { ...(rest[1] as ToolContext) };
        seen.set('through_rest', copy);
        return Object.keys(copy).sort().join(',');
      },
    }),
    defineTool({
      name: 'never_looks',
      description: 'declares only its arguments and keeps the stand-in for later',
      execute: function () {
        // biome-ignore lint/complexity/noArguments: what this test is about
        seen.set('never_looks', arguments[1] as ToolContext);
        return 'done';
      },
    }),
  ],
});

let handle: ServeHandle;
beforeAll(async () => {
  handle = await serve(server, { transport: { type: 'http', port: 0 } });
});
afterAll(() => handle.close());

/** Runs `use` with an SDK v1 client (2025) connected to the test server, closed afterwards. */
async function withV1Client<T>(name: string, use: (client: V1Client) => Promise<T>): Promise<T> {
  const client = new V1Client({ name, version: '1.0.0' });
  await client.connect(new V1Http(new URL(handle.url as string)));
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

describe('a tool that does not declare its context', () => {
  test('2026-07-28: progress sent through `arguments` reaches the SDK v2 client', async () => {
    const client = new V2Client({ name: 'handle-v2', version: '1.0.0' }, {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
    } as never);
    await client.connect(new V2Http(new URL(handle.url as string)));
    try {
      const progress: number[] = [];
      const result = await client.callTool({ name: 'through_arguments', arguments: { steps: 3 } }, {
        onprogress: (update: { progress: number }) => progress.push(update.progress),
      } as never);
      expect(progress).toEqual([1, 2, 3]);
      expect(result.content).toEqual([
        { type: 'text', text: expect.stringMatching(/^era modern, request \S+$/) },
      ]);
    } finally {
      await client.close();
    }
  });

  test('2025: the same tool reports progress to the SDK v1 client', async () => {
    await withV1Client('handle-v1', async (client) => {
      const progress: number[] = [];
      const result = await client.callTool(
        { name: 'through_arguments', arguments: { steps: 2 } },
        undefined,
        {
          onprogress: (update) => progress.push(update.progress),
        },
      );
      expect(progress).toEqual([1, 2]);
      expect(result.content).toEqual([
        { type: 'text', text: expect.stringMatching(/^era legacy, request /) },
      ]);
    });
  });

  test('a spread copy of the stand-in has the context own keys, a live signal and working channels', async () => {
    await withV1Client('handle-rest', async (client) => {
      const result = await client.callTool({ name: 'through_rest', arguments: {} });
      const keys = (result.content as Array<{ text: string }>)[0]?.text.split(',');
      expect(keys).toEqual(
        expect.arrayContaining(['signal', 'progress', 'log', 'elicit', 'era', 'requestId']),
      );
      const copy = seen.get('through_rest') as ToolContext;
      expect(copy.signal).toBeInstanceOf(AbortSignal);
      expect(copy.era).toBe('legacy');
      // Answered: the channels still resolve, and send nothing.
      await expect(copy.progress(1)).resolves.toBeUndefined();
    });
  });
});

/** A request whose notifications are recorded (the channel is the transport's part, not under test). */
function recordedRequest(notified: unknown[]): InboundRequest {
  return {
    id: 7,
    method: 'tools/call',
    params: { name: 't', _meta: { progressToken: 'p' } },
    era: 'legacy',
    abort: new CallAbort(),
    channel: { notify: (message) => notified.push(message) },
  };
}

describe('ToolContextHandle', () => {
  const oneParameter = (_args: unknown) => undefined;
  const twoParameters = (_args: unknown, _context: unknown) => undefined;

  test('a tool that declares its context gets the context itself; the handle builds it once', () => {
    const handle = new ToolContextHandle({ request: recordedRequest([]), inputs: undefined as never });
    const given = handle.forTool(twoParameters);
    expect(given).toBe(handle.context);
    expect(handle.forTool(oneParameter)).toBe(given);
  });

  test('nothing is built for a tool that does not declare its context until it touches it', () => {
    let paramsRead = 0;
    const request = recordedRequest([]);
    const counted = {
      ...request,
      get params() {
        paramsRead++;
        return request.params;
      },
    };
    const handle = new ToolContextHandle({ request: counted, inputs: undefined as never });
    const standIn = handle.forTool(oneParameter);
    handle.follow(undefined);
    expect(paramsRead).toBe(0);
    expect(standIn.era).toBe('legacy');
    expect(paramsRead).toBeGreaterThan(0);
  });

  test('the stand-in builds the context on first touch; progress then goes out', async () => {
    const notified: unknown[] = [];
    const handle = new ToolContextHandle({ request: recordedRequest(notified), inputs: undefined as never });
    const standIn = handle.forTool(oneParameter);
    expect(standIn).not.toBe(handle.context);
    await standIn.progress(1, 2);
    expect(standIn.requestId).toBe(7);
    expect(notified).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'p', progress: 1, total: 2 },
      },
    ]);
  });

  test('a call answered before its context was built: the context built later sends nothing', async () => {
    const notified: unknown[] = [];
    const handle = new ToolContextHandle({ request: recordedRequest(notified), inputs: undefined as never });
    const standIn = handle.forTool(oneParameter);
    handle.follow(undefined);
    await standIn.progress(1);
    await standIn.log('info', 'late');
    expect(notified).toEqual([]);
  });

  test('a run that resumes on a retry: progress goes to the request the handle follows', async () => {
    const first: unknown[] = [];
    const retry: unknown[] = [];
    const handle = new ToolContextHandle({ request: recordedRequest(first), inputs: undefined as never });
    handle.follow(recordedRequest(retry));
    await handle.context.progress(3);
    expect(first).toEqual([]);
    expect(retry).toHaveLength(1);
  });
});

test('a tool that never touches its stand-in still has a usable one afterwards', async () => {
  await withV1Client('handle-late', async (client) => {
    const result = await client.callTool({ name: 'never_looks', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
    const late = seen.get('never_looks') as ToolContext;
    expect(late.era).toBe('legacy');
    expect(typeof late.closeResponseStream).toBe('function');
  });
});
