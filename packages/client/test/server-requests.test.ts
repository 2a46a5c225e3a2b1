// Requests a server makes of the client — elicitation, sampling, roots — answered in both eras:
// as input-required rounds of a call (2026-07-28) and as server requests (2025). Handlers given
// for one call take precedence over the client-level ones for that call's requests only.
import type { ElicitRequest } from '@modelcontextprotocol/client';
import { startEverythingHttp } from '@switchboard/test-helpers';
import { afterEach, describe, expect, it } from 'vitest';
import { connectMcp, createMcpClient, type ElicitationHandler, type McpClient } from '../src/index.js';
import { startSdkV2Server } from './helpers/http-mcp-server.js';
import { fixture } from './helpers/servers.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

async function httpServer(legacy?: 'reject') {
  const running = await startSdkV2Server(legacy ? { legacy } : {});
  cleanups.push(() => running.close());
  return running;
}

async function client(...args: Parameters<typeof createMcpClient>): Promise<McpClient> {
  const connected = await createMcpClient(...args);
  cleanups.push(() => connected.close());
  return connected;
}

const textOf = (result: { content?: unknown }) => (result.content as Array<{ text: string }>)[0]?.text;

/** An elicitation handler that confirms (or declines) and records the messages it was shown. */
function answering(confirm: boolean, seen: string[] = []): ElicitationHandler {
  return (params: ElicitRequest['params']) => {
    seen.push(params.message);
    return { action: 'accept', content: { confirm } };
  };
}

const clientHandlers = {
  elicitation: answering(false),
  sampling: () => ({
    role: 'assistant' as const,
    model: 'client-model',
    content: { type: 'text' as const, text: 'from the client' },
  }),
  roots: [{ uri: 'file:///client-root', name: 'client' }],
};

describe('input-required results (2026-07-28)', () => {
  it('answers elicitation, sampling and roots rounds with the client-level handlers', async () => {
    const modern = await httpServer('reject');
    const connected = await client('x', { url: modern.url }, clientHandlers);
    expect(connected.era).toBe('modern');
    expect(textOf(await connected.callTool('confirm', { action: 'deploy' }))).toBe('deploy: declined');
    expect(textOf(await connected.callTool('summarize', { text: 'long text' }))).toBe(
      'summary: from the client',
    );
    expect(textOf(await connected.callTool('roots'))).toBe('file:///client-root');
    // Each round is a fresh tools/call carrying the answers; none of it was a server→client request.
    const confirms = modern.requests.filter((request) => request.body?.params?.name === 'confirm');
    expect(confirms).toHaveLength(2);
    expect(confirms[1]?.body?.params?.inputResponses).toMatchObject({ confirm: { action: 'accept' } });
    expect(confirms[0]?.body?.id).not.toEqual(confirms[1]?.body?.id);
  });

  it('per-call handlers answer that call only, while the client-level ones answer the others', async () => {
    const modern = await httpServer('reject');
    const connected = await client('x', { url: modern.url }, clientHandlers);
    const ownSeen: string[] = [];
    const [own, plain, rooted] = await Promise.all([
      connected.callTool('confirm', { action: 'ship' }, { onElicitation: answering(true, ownSeen) }),
      connected.callTool('confirm', { action: 'wait' }),
      connected.callTool('roots', {}, { onListRoots: () => [{ uri: 'file:///call-root' }] }),
    ]);
    expect(textOf(own)).toBe('ship: confirmed');
    expect(textOf(plain)).toBe('wait: declined');
    expect(textOf(rooted)).toBe('file:///call-root');
    expect(ownSeen).toEqual(['Confirm ship?']);
  });

  it('a call with handlers of its own only for sampling still gets the client-level elicitation', async () => {
    const modern = await httpServer('reject');
    const connected = await client('x', { url: modern.url }, clientHandlers);
    const result = await connected.callTool(
      'confirm',
      { action: 'mix' },
      { onSampling: () => ({ role: 'assistant', model: 'm', content: { type: 'text', text: 'unused' } }) },
    );
    expect(textOf(result)).toBe('mix: declined');
  });
});

describe('input-required rounds and progress (2026-07-28)', () => {
  it("onProgress gets the server's progress only, not the SDK driver's own round markers", async () => {
    const modern = await httpServer('reject');
    const connected = await client('x', { url: modern.url }, clientHandlers);
    const updates: unknown[] = [];
    const result = await connected.callTool(
      'confirm',
      { action: 'deploy' },
      { onProgress: (update) => updates.push(update), onElicitation: answering(true) },
    );
    expect(textOf(result)).toBe('deploy: confirmed');
    // Two rounds went to the server (the second with the answer), and it sent no progress.
    expect(modern.requests.filter((request) => request.body?.params?.name === 'confirm')).toHaveLength(2);
    expect(updates).toEqual([]);
  });
});

describe('server requests (2025 era)', () => {
  it('over HTTP, each request goes to the call whose response stream carried it (server-everything)', async () => {
    const everything = await startEverythingHttp('streamableHttp');
    cleanups.push(() => everything.close());
    const named =
      (name: string): ElicitationHandler =>
      () => ({ action: 'accept', content: { name } });
    const connected = await client(
      'everything',
      { url: everything.url },
      { elicitation: named('client-level') },
    );
    expect(connected.era).toBe('legacy');
    const call = (options = {}) => connected.callTool('trigger-elicitation-request', {}, options);
    const results = await Promise.all([
      call({ onElicitation: named('Ada') }),
      call({ onElicitation: named('Grace') }),
      call(),
    ]);
    const names = results.map((result) => JSON.stringify(result.content).match(/Name: (\w[\w-]*)/)?.[1]);
    expect(names).toEqual(['Ada', 'Grace', 'client-level']);
  });

  it('over stdio, the one call with handlers of its own in flight answers', async () => {
    const connected = await client(
      'v2',
      { command: process.execPath, args: [fixture('sdk-v2-server.mjs')], protocolVersion: '2025-11-25' },
      clientHandlers,
    );
    expect(connected.era).toBe('legacy');
    const seen: string[] = [];
    const result = await connected.callTool(
      'confirm',
      { action: 'local' },
      { onElicitation: answering(true, seen) },
    );
    expect(textOf(result)).toBe('local: confirmed');
    expect(seen).toEqual(['Confirm local?']);
    expect(textOf(await connected.callTool('confirm', { action: 'later' }))).toBe('later: declined');
  });

  it('per-call handlers reach through connectMcp tools (execute options)', async () => {
    const dual = await httpServer();
    const connection = await connectMcp(
      { x: { url: dual.url } },
      { ...clientHandlers, rawResults: true, approval: 'never' },
    );
    cleanups.push(() => connection.close());
    const confirm = connection.tools.mcp__x__confirm;
    const result = (await confirm?.execute?.({ action: 'gate' }, { onElicitation: answering(true) })) as {
      content: unknown;
    };
    expect(textOf(result)).toBe('gate: confirmed');
  });
});
