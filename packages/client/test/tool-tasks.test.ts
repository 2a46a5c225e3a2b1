// Tasks (extension io.modelcontextprotocol/tasks, SEP-2663) on the client: a server that answers
// a call with a task is polled (tasks/get) to the result, its input requests are answered with
// the call's handlers (tasks/update), and a caller can take the task handle instead of waiting.
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpClient, type McpClient, type TaskState } from '../src/index.js';
import { type RunningMcpServer, startSdkV2Server } from './helpers/http-mcp-server.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

async function setUp(options: Parameters<typeof createMcpClient>[2] = {}): Promise<{
  server: RunningMcpServer;
  client: McpClient;
}> {
  const server = await startSdkV2Server({ legacy: 'reject', tasks: true });
  cleanups.push(() => server.close());
  const client = await createMcpClient('jobs', { url: server.url }, options);
  cleanups.push(() => client.close());
  return { server, client };
}

const textOf = (result: { content?: unknown }) => (result.content as Array<{ text: string }>)[0]?.text;
const methods = (server: RunningMcpServer) => server.requests.map((request) => request.body?.method);

describe('tasks', () => {
  it('declares the extension, and a plain callTool polls the task to its result, reporting progress', async () => {
    const { server, client } = await setUp();
    const progress: Array<string | undefined> = [];
    const result = await client.callTool(
      'long_job',
      { steps: 3 },
      { onProgress: (event) => progress.push(event.message) },
    );
    expect(textOf(result)).toBe('job task-1 done after 3 polls');
    expect(progress).toEqual(['queued', 'step 1 of 3', 'step 2 of 3', 'done']);
    expect(methods(server).filter((method) => method === 'tasks/get')).toHaveLength(3);
    const call = server.requests.find((request) => request.body?.method === 'tools/call');
    const meta = call?.body?.params?._meta as Record<string, { extensions?: Record<string, unknown> }>;
    expect(meta['io.modelcontextprotocol/clientCapabilities']?.extensions).toHaveProperty(
      'io.modelcontextprotocol/tasks',
    );
    // Routing headers name the task (SEP-2663).
    const poll = server.requests.find((request) => request.body?.method === 'tasks/get');
    expect(poll?.headers['mcp-name']).toBe('task-1');
  });

  it('answers a task waiting for input with the call handler (tasks/update), once per input request', async () => {
    const { server, client } = await setUp({ elicitation: () => ({ action: 'decline' }) });
    const asked: string[] = [];
    const statuses: TaskState['status'][] = [];
    const started = await client.startTool(
      'long_job',
      { steps: 1, ask: true },
      {
        onElicitation: (params) => {
          asked.push(params.message);
          return { action: 'accept', content: { confirm: true } };
        },
      },
    );
    expect(started.task?.state.status).toBe('working');
    const result = await started.task?.result({ onStatus: (state) => statuses.push(state.status) });
    expect(textOf(result ?? {})).toBe('job task-1 done after 2 polls, confirmed: true');
    expect(asked).toEqual(['Run task-1?']);
    expect(statuses).toEqual(['working', 'input_required', 'completed']);
    const update = server.requests.find((request) => request.body?.method === 'tasks/update');
    expect(update?.body?.params).toMatchObject({
      taskId: 'task-1',
      inputResponses: { go: { action: 'accept' } },
    });
  });

  it('gives the task handle instead of waiting, and cancels on request or when the caller aborts', async () => {
    const { server, client } = await setUp();
    const started = await client.startTool('long_job', { steps: 100 });
    const task = started.task;
    expect(task?.taskId).toBe('task-1');
    await task?.cancel();
    expect((await task?.refresh())?.status).toBe('cancelled');

    const abort = new AbortController();
    const polled = server.received.find(
      (request) => request.body?.method === 'tasks/get' && request.body.params?.taskId === 'task-2',
      { what: 'the client to poll its task' },
    );
    const waiting = client.callTool('long_job', { steps: 100 }, { signal: abort.signal });
    // Abort once the call is a task the client polls.
    await polled;
    abort.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'CANCELLED' });
    const cancels = server.requests.filter((request) => request.body?.method === 'tasks/cancel');
    expect(cancels.map((request) => request.body?.params?.taskId)).toEqual(['task-1', 'task-2']);
    // A task resumed by id (after a restart, say) reports what the server holds.
    expect((await client.getTask('task-2', 'long_job')).state.status).toBe('cancelled');
  });

  it('a client with tasks turned off gets the result synchronously', async () => {
    const { client } = await setUp({ tasks: false });
    expect(textOf(await client.callTool('long_job', {}))).toBe('job done synchronously');
  });
});
