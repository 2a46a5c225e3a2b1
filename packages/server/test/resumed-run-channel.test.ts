/**
 * Where a suspended 2026-07-28 run sends its progress and logs: while it is parked, nowhere (the
 * stream of the round that answered input-required is closed, and writing to it must not break
 * the server); once a retry resumes it, on the retry's stream, with the retry's `progressToken`
 * and log level. Progress that does not increase is dropped (the spec requires each value to be
 * greater). Checked with the official SDK v2 client pinned to 2026-07-28 and on the raw wire.
 */
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { createEventLog, type EventLog, envelope, post } from '@switchboard/test-helpers';
import { afterEach, describe, expect, test } from 'vitest';
import { createMcpServer, defineTool, type ServeHandle, serve } from '../src/index.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const nameSchema = { type: 'object', properties: { name: { type: 'string' } } } as const;

/** The progress a parked run sent from its timer (the server's own beat, every 20 ms). */
const parkedTicksLog = () => createEventLog<number>('progress sent while the run was parked');

/** A server whose tool reports progress before, while and after it waits for an answer. */
async function start(parkedTicks: EventLog<number>): Promise<ServeHandle & { url: string }> {
  const server = createMcpServer({
    name: 'resumed-run',
    version: '1.0.0',
    tools: [
      defineTool({
        name: 'ask_then_work',
        description: 'asks for a name, then works in steps reporting progress and logs',
        execute: async (_args, { elicit, progress, log }) => {
          await progress(1, 4, 'before asking');
          // Progress while the run is parked: a timer that fires between the rounds.
          const ticker = setInterval(() => {
            parkedTicks.push(1.5);
            void progress(1.5, 4, 'while parked');
          }, 20);
          let answer: Awaited<ReturnType<typeof elicit>>;
          try {
            answer = await elicit({ message: 'Your name?', requestedSchema: nameSchema });
          } finally {
            clearInterval(ticker);
          }
          for (let step = 2; step <= 4; step++) {
            await new Promise((resolve) => setTimeout(resolve, 10));
            await progress(step, 4, `step ${step}`);
            await log('info', `step ${step} done`);
          }
          return `worked for ${String(answer.content?.name)}`;
        },
      }),
    ],
  });
  const handle = await serve(server, { transport: { type: 'http', port: 0 } });
  cleanups.push(async () => {
    await handle.close();
    await server.close();
  });
  return handle as ServeHandle & { url: string };
}

describe('a resumed 2026-07-28 run', () => {
  test('the official pinned client gets the progress sent after the resume', async () => {
    const parked = parkedTicksLog();
    const { url } = await start(parked);
    const client = new V2Client(
      { name: 'resume-progress', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: {} } },
    );
    client.setRequestHandler('elicitation/create', async () => {
      // Answer only once the parked run's timer has fired a few times.
      await parked.atLeast(3);
      return { action: 'accept', content: { name: 'Ada' } };
    });
    await client.connect(new V2Http(new URL(url)));
    cleanups.push(() => client.close());
    const updates: Array<{ progress: number; message?: string }> = [];
    const result = await client.callTool({ name: 'ask_then_work', arguments: {} }, {
      onprogress: (update: { progress: number; message?: string }) => updates.push(update),
    } as never);
    expect(result.content).toEqual([{ type: 'text', text: 'worked for Ada' }]);
    // The SDK client reports its own rounds as progress too ("Fulfilling input required…"); the
    // server's: the first round's, then the resumed run's on the retry, nothing from while it was parked.
    const fromServer = updates
      .map((update) => update.message)
      .filter((message) => !String(message).startsWith('Fulfilling input required'));
    expect(fromServer).toEqual(['before asking', 'step 2', 'step 3', 'step 4']);
  });

  test('on the wire: the retry stream carries the progress (its own token) and the logs (its own level)', async () => {
    const parked = parkedTicksLog();
    const { url } = await start(parked);
    const caps = { elicitation: {} };
    const first = await post(url, 'tools/call', {
      name: 'ask_then_work',
      arguments: {},
      _meta: { ...envelope(caps), progressToken: 'first-token' },
    });
    expect(first.body.result?.resultType).toBe('input_required');
    expect(first.events).toContainEqual(
      expect.objectContaining({
        method: 'notifications/progress',
        params: expect.objectContaining({ progressToken: 'first-token', message: 'before asking' }),
      }),
    );
    // Let the parked run's timer write to the closed first round: the server must keep serving.
    await parked.atLeast(parked.entries.length + 3);
    const retry = await post(url, 'tools/call', {
      name: 'ask_then_work',
      arguments: {},
      inputResponses: { elicitation_1: { action: 'accept', content: { name: 'Grace' } } },
      requestState: first.body.result?.requestState,
      _meta: {
        ...envelope(caps, { 'io.modelcontextprotocol/logLevel': 'info' }),
        progressToken: 'retry-token',
      },
    });
    expect(retry.body.result).toMatchObject({ content: [{ type: 'text', text: 'worked for Grace' }] });
    const notifications = retry.events.filter(
      (event): event is { method: string; params: Record<string, unknown> } =>
        typeof event === 'object' && event !== null && 'method' in event,
    );
    const progress = notifications.filter((event) => event.method === 'notifications/progress');
    expect(progress.map((event) => [event.params.progressToken, event.params.progress])).toEqual([
      ['retry-token', 2],
      ['retry-token', 3],
      ['retry-token', 4],
    ]);
    const logs = notifications.filter((event) => event.method === 'notifications/message');
    expect(logs.map((event) => event.params.data)).toEqual(['step 2 done', 'step 3 done', 'step 4 done']);
    // The first round's stream got nothing after its answer, and the server still answers.
    const again = await post(url, 'tools/call', {
      name: 'ask_then_work',
      arguments: {},
      _meta: envelope(caps),
    });
    expect(again.body.result?.resultType).toBe('input_required');
  });

  test('a retry without a progress token or log level gets neither', async () => {
    const { url } = await start(parkedTicksLog());
    const caps = { elicitation: {} };
    const first = await post(url, 'tools/call', {
      name: 'ask_then_work',
      arguments: {},
      _meta: { ...envelope(caps, { 'io.modelcontextprotocol/logLevel': 'debug' }), progressToken: 7 },
    });
    const retry = await post(url, 'tools/call', {
      name: 'ask_then_work',
      arguments: {},
      inputResponses: { elicitation_1: { action: 'accept', content: { name: 'Lin' } } },
      requestState: first.body.result?.requestState,
      _meta: envelope(caps),
    });
    expect(retry.body.result).toMatchObject({ content: [{ type: 'text', text: 'worked for Lin' }] });
    expect(
      retry.events.filter((event) => typeof event === 'object' && event !== null && 'method' in event),
    ).toEqual([]);
  });

  test('progress that does not increase is dropped', async () => {
    const server = createMcpServer({
      name: 'progress-order',
      version: '1.0.0',
      tools: [
        defineTool({
          name: 'wobbly',
          description: 'reports progress that goes back and forth',
          execute: async (_args, { progress }) => {
            for (const value of [1, 1, 0.5, 2, 1, 3]) await progress(value, 3);
            return 'done';
          },
        }),
      ],
    });
    const handle = await serve(server, { transport: { type: 'http', port: 0 } });
    cleanups.push(async () => {
      await handle.close();
      await server.close();
    });
    const answer = await post(handle.url as string, 'tools/call', {
      name: 'wobbly',
      arguments: {},
      _meta: { ...envelope(), progressToken: 'p' },
    });
    const values = answer.events
      .filter((event) => (event as { method?: string }).method === 'notifications/progress')
      .map((event) => (event as { params: { progress: number } }).params.progress);
    expect(values).toEqual([1, 2, 3]);
  });

  test('progress and logs after the call was answered are dropped, and the server keeps serving', async () => {
    const late = createEventLog<Promise<void>>('progress and log sent after the answer');
    // The first call's tool reports once the test holds its answer (later calls answer plainly).
    let answered: (() => void) | undefined;
    const answerReceived = new Promise<void>((resolve) => {
      answered = resolve;
    });
    const server = createMcpServer({
      name: 'late-progress',
      version: '1.0.0',
      tools: [
        defineTool({
          name: 'late',
          description: 'answers at once, then reports progress once the client has the answer',
          execute: (_args, { progress, log }) => {
            if (late.entries.length === 0)
              void answerReceived.then(() => {
                late.push(progress(5));
                late.push(log('error', 'too late'));
              });
            return 'answered';
          },
        }),
      ],
    });
    const handle = await serve(server, { transport: { type: 'http', port: 0 } });
    cleanups.push(async () => {
      await handle.close();
      await server.close();
    });
    const url = handle.url as string;
    const first = await post(url, 'tools/call', {
      name: 'late',
      arguments: {},
      _meta: { ...envelope({}, { 'io.modelcontextprotocol/logLevel': 'debug' }), progressToken: 'late' },
    });
    expect(first.body.result).toMatchObject({ content: [{ type: 'text', text: 'answered' }] });
    answered?.();
    // Dropped quietly: neither rejects (before, writing to the finished response failed).
    await expect(Promise.all(await late.atLeast(2))).resolves.toEqual([undefined, undefined]);
    const again = await post(url, 'tools/call', { name: 'late', arguments: {}, _meta: envelope() });
    expect(again.body.result).toMatchObject({ content: [{ type: 'text', text: 'answered' }] });
  });
});
