/**
 * Tools whose approval policy says `ask` are listed, and a person is asked where they are: through
 * an elicitation to the client that called (both eras: the SDK v1 client on a 2025 session, the
 * SDK v2 client pinned to 2026-07-28), or, where the client cannot be asked, by the host (`auto`
 * runs the call) — or the call is refused (`elicit`). Only `deny` hides a tool, and a call to a
 * hidden tool says what hides it.
 */
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createApprovalPolicy, createToolRegistry } from '@switchboard/core';
import { afterEach, describe, expect, test } from 'vitest';
import { type ApprovalPrompt, createMcpServer, type ServeHandle, serve } from '../src/index.js';

type Kind = 'v1' | 'modern';
type Answer = 'accept' | 'decline' | 'cancel';

/** What the tools did and what the clients were asked. */
interface Trace {
  runs: string[];
  asked: string[];
}

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/** A server over HTTP (2025 sessions) with one read-only, one `ask` and one denied tool. */
async function startServer(approvalPrompt: ApprovalPrompt | undefined, record: Trace): Promise<string> {
  const registry = createToolRegistry();
  const tool = (name: string, annotations?: { readOnlyHint?: boolean }) =>
    registry.register({
      server: 'fs',
      name,
      description: `${name}s a file`,
      inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
      ...(annotations ? { annotations } : {}),
      execute: async (args) => {
        record.runs.push(`${name} ${JSON.stringify(args)}`);
        return `${name} done`;
      },
    });
  tool('read', { readOnlyHint: true });
  tool('write');
  tool('wipe');
  const server = createMcpServer({
    name: 'files',
    version: '1.0.0',
    registry,
    approval: createApprovalPolicy({ servers: { fs: { deny: ['wipe'] } } }),
    ...(approvalPrompt !== undefined ? { approvalPrompt } : {}),
  });
  const handle: ServeHandle = await serve(server, { transport: { type: 'http', port: 0, session: true } });
  cleanups.push(() => server.close());
  cleanups.push(() => handle.close());
  return handle.url as string;
}

/** An official client of `kind`, declaring elicitation (answering `answer`) or not. */
async function connect(kind: Kind, url: string, record: Trace, answer?: Answer) {
  const capabilities = answer === undefined ? {} : { elicitation: {} };
  const reply = (message: string) => {
    record.asked.push(message);
    return answer === 'accept' ? { action: 'accept', content: {} } : { action: answer };
  };
  if (kind === 'v1') {
    const client = new V1Client({ name: 'v1', version: '1.0.0' }, { capabilities });
    if (answer !== undefined)
      client.setRequestHandler(
        ElicitRequestSchema,
        async (request) => reply(request.params.message) as never,
      );
    await client.connect(new V1Http(new URL(url)));
    cleanups.push(() => client.close());
    return {
      list: async () => (await client.listTools()).tools,
      call: (name: string, args: Record<string, unknown> = {}) =>
        client.callTool({ name, arguments: args }) as Promise<{ isError?: boolean; content: unknown }>,
    };
  }
  const client = new V2Client({ name: 'modern', version: '1.0.0' }, {
    capabilities,
    versionNegotiation: { mode: { pin: '2026-07-28' } },
  } as never);
  if (answer !== undefined)
    client.setRequestHandler('elicitation/create', async (request) => reply(request.params.message) as never);
  await client.connect(new V2Http(new URL(url)));
  cleanups.push(() => client.close());
  return {
    list: async () => (await client.listTools()).tools,
    call: (name: string, args: Record<string, unknown> = {}) =>
      client.callTool({ name, arguments: args }) as Promise<{ isError?: boolean; content: unknown }>,
  };
}

const textOf = (result: { content: unknown }) =>
  (result.content as Array<{ text?: string }>).map((block) => block.text).join('');

describe.each(['v1', 'modern'] as const)('approval prompt, %s client', (kind) => {
  test("'auto': an ask tool is listed (not read-only), only deny hides; an eliciting client is asked, accept runs", async () => {
    const record: Trace = { runs: [], asked: [] };
    const client = await connect(kind, await startServer('auto', record), record, 'accept');
    const tools = await client.list();
    expect(tools.map((tool) => tool.name)).toEqual(['mcp__fs__read', 'mcp__fs__write']);
    expect(tools.find((tool) => tool.name === 'mcp__fs__write')?.annotations?.readOnlyHint).not.toBe(true);

    const written = await client.call('mcp__fs__write', { path: 'a.txt' });
    expect(written.isError).not.toBe(true);
    expect(textOf(written)).toBe('write done');
    expect(record.runs).toEqual(['write {"path":"a.txt"}']);
    expect(record.asked).toHaveLength(1);
    expect(record.asked[0]).toContain('"write" of "fs" (mcp__fs__write)');
    expect(record.asked[0]).toContain('{"path":"a.txt"}');
    // A read-only tool runs without a question.
    expect(textOf(await client.call('mcp__fs__read'))).toBe('read done');
    expect(record.asked).toHaveLength(1);
  });

  test("'auto': declined or dismissed, the call does not run and its result says so", async () => {
    for (const answer of ['decline', 'cancel'] as const) {
      const record: Trace = { runs: [], asked: [] };
      const client = await connect(kind, await startServer('auto', record), record, answer);
      const result = await client.call('mcp__fs__write', { path: 'a.txt' });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(answer === 'decline' ? 'was declined' : 'was dismissed');
      expect(textOf(result)).toContain('it did not run');
      expect(record.asked).toHaveLength(1);
      expect(record.runs).toEqual([]);
    }
  });

  test("'auto' runs the call for a client that cannot elicit (its host asks); 'elicit' refuses it", async () => {
    const record: Trace = { runs: [], asked: [] };
    const auto = await connect(kind, await startServer('auto', record), record);
    expect(textOf(await auto.call('mcp__fs__write', { path: 'b.txt' }))).toBe('write done');
    expect(record.runs).toEqual(['write {"path":"b.txt"}']);

    const strict: Trace = { runs: [], asked: [] };
    const refused = await (await connect(kind, await startServer('elicit', strict), strict)).call(
      'mcp__fs__write',
    );
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('needs a person');
    expect(textOf(refused)).toContain('cannot be asked');
    expect(strict.runs).toEqual([]);
  });

  test("'host' never asks, even a client that could be asked", async () => {
    const record: Trace = { runs: [], asked: [] };
    const client = await connect(kind, await startServer('host', record), record, 'decline');
    expect(textOf(await client.call('mcp__fs__write'))).toBe('write done');
    expect(record.asked).toEqual([]);
  });

  test('a hidden tool is not "unknown": the error says what hides it and what to do', async () => {
    const record: Trace = { runs: [], asked: [] };
    const client = await connect(kind, await startServer('auto', record), record, 'accept');
    const denied = await client.call('mcp__fs__wipe').then(
      (result) => ({ result }),
      (error: { code?: number; message: string }) => ({ error }),
    );
    expect('error' in denied ? denied.error.code : denied.result).toBe(-32602);
    const message = 'error' in denied ? denied.error.message : '';
    expect(message).toContain('Tool "mcp__fs__wipe" exists but is not served');
    expect(message).toContain('denies it (matches deny glob "wipe" of server "fs")');
    expect(message).not.toContain('Unknown tool');

    const hiding: Trace = { runs: [], asked: [] };
    const old = await connect(kind, await startServer(undefined, hiding), hiding, 'accept');
    expect((await old.list()).map((tool) => tool.name)).toEqual(['mcp__fs__read']);
    const hidden = await old.call('mcp__fs__write').catch((error: Error) => error);
    expect((hidden as Error).message).toContain("needs a person's approval");
    expect((hidden as Error).message).toContain("approval prompt 'hide'");
    expect(hiding.runs).toEqual([]);
  });
});

test('a name the server does not know gets the hint the server was given', async () => {
  const server = createMcpServer({
    name: 'hinted',
    version: '1.0.0',
    missingToolHint: (name) => (name === 'write' ? 'Did you mean "mcp__fs__write"?' : undefined),
  });
  const handle = await serve(server, { transport: { type: 'http', port: 0, session: true } });
  cleanups.push(() => server.close());
  cleanups.push(() => handle.close());
  const record: Trace = { runs: [], asked: [] };
  const client = await connect('v1', handle.url as string, record);
  await expect(client.call('write')).rejects.toThrow(
    /Unknown tool "write"\. Did you mean "mcp__fs__write"\?/,
  );
  await expect(client.call('other')).rejects.toThrow(/Unknown tool "other"\. This server has no tools\./);
});

test('an approval prompt that is not one of the four is refused at creation', () => {
  expect(() =>
    createMcpServer({ name: 'x', version: '1', approvalPrompt: 'always' as ApprovalPrompt }),
  ).toThrow(/approvalPrompt must be one of 'auto', 'elicit', 'host', 'hide'/);
});
