/**
 * Approval through a gateway, with the official servers upstream and official clients of both eras
 * downstream: a tool the policy says to ask about (server-filesystem's `write_file`) is listed with
 * its annotations, and the person is asked where they are — through the downstream client's
 * elicitation (accept: the file is written; decline: it is not), or, for a client that cannot be
 * asked, by the host (the call is relayed; `elicit` refuses it instead). Only `deny` hides a tool,
 * and a call to a tool that is not served says why it is missing.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ServeHandle, serve } from '@switchboard/server';
import { serverScript } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createGateway, type Gateway, type GatewayOptions } from '../src/index.js';
import { connectDownstream, type Downstream, type DownstreamKind } from './fixtures/downstream-clients.js';

let root: string;
let gateway: Gateway;
let handle: ServeHandle & { url: string };
const closers: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'gateway-approval-'));
  gateway = await createGateway({
    config: {
      mcpServers: {
        files: {
          command: process.execPath,
          args: [serverScript('server-filesystem'), root],
          // A config's deny rule holds through the gateway; write_file and edit_file are `ask`.
          approval: { deny: ['move_file'] },
        },
        memory: {
          command: process.execPath,
          args: [serverScript('server-memory')],
          env: { MEMORY_FILE_PATH: join(root, 'memory.jsonl') },
          excludeTools: ['delete_relations'],
        },
      },
    },
  });
  handle = (await serve(gateway, { transport: { type: 'http', port: 0, session: true } })) as ServeHandle & {
    url: string;
  };
}, 60_000);

afterAll(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {});
  await handle?.close();
  await gateway?.close();
  rmSync(root, { recursive: true, force: true });
});

async function downstream(
  kind: DownstreamKind,
  url: string,
  options: Parameters<typeof connectDownstream>[2] = {},
): Promise<Downstream> {
  const connected = await connectDownstream(kind, url, options);
  closers.push(() => connected.close());
  return connected;
}

/** Another gateway over the same upstream set, with other options, served over HTTP. */
async function sibling(options: Omit<GatewayOptions, 'clients'>): Promise<string> {
  const other = await createGateway({ clients: gateway.clients, ...options });
  const served = await serve(other, { transport: { type: 'http', port: 0, session: true } });
  closers.push(() => other.close());
  closers.push(() => served.close());
  return served.url as string;
}

const textOf = (result: Record<string, unknown>) =>
  ((result.content as Array<{ text?: string }>) ?? []).map((block) => block.text ?? '').join('');

async function callError(client: Downstream, name: string): Promise<{ code?: number; message: string }> {
  return client.call(name, {}).then(
    (result) => ({ message: `no error: ${JSON.stringify(result)}` }),
    (error: { code?: number; message: string }) => error,
  );
}

const kinds: DownstreamKind[] = ['modern', 'v1'];

describe.each(kinds)('a %s downstream client', (kind) => {
  test('lists every upstream tool but the denied one, an ask tool with its upstream annotations', async () => {
    const client = await downstream(kind, handle.url);
    const listed = (
      await (client.raw as { listTools(): Promise<{ tools: Array<Record<string, unknown>> }> }).listTools()
    ).tools;
    const upstream = gateway.clients.registry.list();
    expect(listed.map((tool) => tool.name).sort()).toEqual(
      upstream
        .map((tool) => tool.name)
        .filter((name) => name !== 'mcp__files__move_file')
        .sort(),
    );
    const write = listed.find((tool) => tool.name === 'mcp__files__write_file');
    const upstreamWrite = gateway.clients.registry.get('mcp__files__write_file');
    expect(upstreamWrite?.approval?.().decision).toBe('ask');
    expect(write?.annotations).toEqual({ ...upstreamWrite?.annotations, readOnlyHint: false });
  });

  test('an ask tool: the client is asked through an elicitation; accept writes the file', async () => {
    const client = await downstream(kind, handle.url, { elicitAnswer: { action: 'accept', content: {} } });
    const file = join(root, `accepted-${kind}.txt`);
    const result = await client.call('mcp__files__write_file', { path: file, content: 'approved' });
    expect(result.isError ?? false).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe('approved');
    const questions = client.asked.filter((asked) => asked.method === 'elicitation/create');
    expect(questions).toHaveLength(1);
    expect(String(questions[0]?.params.message)).toContain(
      '"write_file" of "files" (mcp__files__write_file)',
    );
    // A read-only tool is relayed without a question.
    await client.call('mcp__files__list_allowed_directories');
    expect(client.asked.filter((asked) => asked.method === 'elicitation/create')).toHaveLength(1);
  });

  test('an ask tool: declined, the upstream never sees the call and the result says so', async () => {
    const client = await downstream(kind, handle.url, { elicitAnswer: { action: 'decline' } });
    const file = join(root, `declined-${kind}.txt`);
    const result = await client.call('mcp__files__write_file', { path: file, content: 'refused' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('was declined');
    expect(existsSync(file)).toBe(false);
  });

  test('a client that cannot elicit: relayed by default (its host asks), refused under approvalPrompt elicit', async () => {
    const client = await downstream(kind, handle.url, { elicitation: false });
    const file = join(root, `host-${kind}.txt`);
    const relayed = await client.call('mcp__files__write_file', { path: file, content: 'host approved' });
    expect(relayed.isError ?? false).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe('host approved');

    const strict = await downstream(kind, await sibling({ approvalPrompt: 'elicit' }), {
      elicitation: false,
    });
    const refusedFile = join(root, `strict-${kind}.txt`);
    const refused = await strict.call('mcp__files__write_file', { path: refusedFile, content: 'no' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('cannot be asked');
    expect(existsSync(refusedFile)).toBe(false);
  });

  test('a missing tool says why: denied by the policy, left out by excludeTools, or called by its upstream name', async () => {
    const client = await downstream(kind, handle.url);
    const denied = await callError(client, 'mcp__files__move_file');
    expect(denied.code).toBe(-32602);
    expect(denied.message).toContain('exists but is not served');
    expect(denied.message).toContain('deny glob "move_file" of server "files"');

    const excluded = await callError(client, 'mcp__memory__delete_relations');
    expect(excluded.code).toBe(-32602);
    expect(excluded.message).toContain('tool "delete_relations" of upstream server "memory"');
    expect(excluded.message).toContain('includeTools / excludeTools');

    const bare = await callError(client, 'read_graph');
    expect(bare.message).toContain('call "mcp__memory__read_graph"');
  });
});

test('approvalPrompt host (and the deprecated allowApprovalTools) relays without asking; hide hides ask tools', async () => {
  for (const options of [{ approvalPrompt: 'host' }, { allowApprovalTools: true }] as const) {
    const host = await downstream('modern', await sibling(options), { elicitAnswer: { action: 'decline' } });
    const file = join(root, `host-mode-${Object.keys(options)[0]}.txt`);
    expect((await host.call('mcp__files__write_file', { path: file, content: 'x' })).isError ?? false).toBe(
      false,
    );
    expect(readFileSync(file, 'utf8')).toBe('x');
    expect(host.asked.filter((asked) => asked.method === 'elicitation/create')).toEqual([]);
  }

  const hidden = await downstream('v1', await sibling({ approvalPrompt: 'hide' }));
  const names = (
    await (hidden.raw as { listTools(): Promise<{ tools: Array<{ name: string }> }> }).listTools()
  ).tools.map((tool) => tool.name);
  expect(names).toContain('mcp__files__read_text_file');
  expect(names).not.toContain('mcp__files__write_file');
  const error = await callError(hidden, 'mcp__files__write_file');
  expect(error.message).toContain("approval prompt 'hide'");
});
