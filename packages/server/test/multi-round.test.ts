/**
 * Client input in the 2026-07-28 era, on the wire: a tool that calls `elicit` is suspended and the
 * call answers an input-required result whose sealed `requestState` names the suspended run; the
 * retry resumes that same run. Tampered or foreign state, a run that is gone, a missing
 * capability and malformed answers each get the error the spec names.
 */

import { envelope, post } from '@switchboard/test-helpers';
import { afterEach, describe, expect, test } from 'vitest';
import { createMcpServer, defineTool, type ServeHandle, serve } from '../src/index.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const key = 'k'.repeat(32);

async function start(counter: { runs: number }): Promise<ServeHandle & { url: string }> {
  const server = createMcpServer({
    name: 'multi-round',
    version: '1.0.0',
    requestState: { key },
    tools: [
      defineTool({
        name: 'ask_twice',
        description: 'asks two questions one after the other',
        execute: async (_args, { elicit }) => {
          counter.runs += 1;
          const first = await elicit({
            message: 'first?',
            requestedSchema: { type: 'object', properties: { a: { type: 'string' } } },
          });
          const second = await elicit({
            message: 'second?',
            requestedSchema: { type: 'object', properties: { b: { type: 'string' } } },
          });
          return `${String(first.content?.a)} then ${String(second.content?.b)}`;
        },
      }),
    ],
  });
  const handle = await serve(server, { transport: { type: 'http', port: 0, json: true } });
  cleanups.push(async () => {
    await handle.close();
    await server.close();
  });
  return handle as ServeHandle & { url: string };
}

const caps = { elicitation: {} };
const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

describe('a suspended tool call (2026-07-28)', () => {
  test('answers input-required, then resumes the same run on each retry', async () => {
    const counter = { runs: 0 };
    const { url } = await start(counter);
    const first = await post(url, 'tools/call', { name: 'ask_twice', arguments: {}, _meta: envelope(caps) });
    expect(first.status).toBe(200);
    expect(first.body.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { elicitation_1: { method: 'elicitation/create', params: { message: 'first?' } } },
    });
    const state = first.body.result?.requestState as string;
    expect(state).toMatch(/^v1\./);
    const second = await post(url, 'tools/call', {
      name: 'ask_twice',
      arguments: {},
      inputResponses: { elicitation_1: accept({ a: 'one' }) },
      requestState: state,
      _meta: envelope(caps),
    });
    expect(second.body.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { elicitation_2: { params: { message: 'second?' } } },
    });
    const third = await post(url, 'tools/call', {
      name: 'ask_twice',
      arguments: {},
      inputResponses: { elicitation_2: accept({ b: 'two' }) },
      requestState: second.body.result?.requestState,
      _meta: envelope(caps),
    });
    expect(third.body.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'one then two' }],
    });
    // One run across three requests: the tool was not started again.
    expect(counter.runs).toBe(1);
  });

  test('an answer with the wrong key, or of the wrong shape, asks again', async () => {
    const { url } = await start({ runs: 0 });
    const first = await post(url, 'tools/call', { name: 'ask_twice', arguments: {}, _meta: envelope(caps) });
    const retry = await post(url, 'tools/call', {
      name: 'ask_twice',
      arguments: {},
      inputResponses: { elicitation_1: 12345, other: accept({ a: 'x' }) },
      requestState: first.body.result?.requestState,
      _meta: envelope(caps),
    });
    expect(retry.body.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { elicitation_1: {} },
    });
  });

  test('a tampered requestState is refused with -32602 before anything runs', async () => {
    const counter = { runs: 0 };
    const { url } = await start(counter);
    const first = await post(url, 'tools/call', { name: 'ask_twice', arguments: {}, _meta: envelope(caps) });
    const tampered = await post(url, 'tools/call', {
      name: 'ask_twice',
      arguments: {},
      inputResponses: { elicitation_1: accept({ a: 'one' }) },
      requestState: `${first.body.result?.requestState as string}x`,
      _meta: envelope(caps),
    });
    expect(tampered.body.error?.code).toBe(-32602);
    expect(tampered.body.error?.message).toMatch(/integrity check/);
    expect(counter.runs).toBe(1);
  });

  test('a retry that finds no suspended run (another process with the same key) is told so', async () => {
    const { url } = await start({ runs: 0 });
    const first = await post(url, 'tools/call', { name: 'ask_twice', arguments: {}, _meta: envelope(caps) });
    const other = await start({ runs: 0 });
    const lost = await post(other.url, 'tools/call', {
      name: 'ask_twice',
      arguments: {},
      inputResponses: { elicitation_1: accept({ a: 'one' }) },
      requestState: first.body.result?.requestState,
      _meta: envelope(caps),
    });
    expect(lost.body.error?.code).toBe(-32602);
    expect(lost.body.error?.message).toMatch(/suspended call of tool "ask_twice".*is gone/);
    expect(lost.body.error?.message).toMatch(/without requestState/);
  });

  test('asking without the declared capability is -32021 over HTTP 400', async () => {
    const { url } = await start({ runs: 0 });
    const refused = await post(url, 'tools/call', { name: 'ask_twice', arguments: {}, _meta: envelope({}) });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: {} } },
    });
  });

  test('inputResponses that is not an object is -32602', async () => {
    const { url } = await start({ runs: 0 });
    const bad = await post(url, 'tools/call', {
      name: 'ask_twice',
      arguments: {},
      inputResponses: null,
      _meta: envelope(caps),
    });
    expect(bad.body.error?.code).toBe(-32602);
    expect(bad.body.error?.message).toMatch(/inputResponses/);
  });
});
