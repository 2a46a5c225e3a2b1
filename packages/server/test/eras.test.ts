/**
 * Official clients of both eras against `serve`: the SDK v2 client pinned to 2026-07-28, in
 * `auto` mode and in its default (2025) mode, and the SDK v1 client — over stateless HTTP, HTTP
 * sessions and stdio (a child process). Tools that ask the client for input are written once and
 * work in every combination, in both styles (context `elicit`/`sample`/`listRoots`, and returning
 * the SDK's `inputRequired`).
 */
import { fileURLToPath } from 'node:url';
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type ServeHandle, serve } from '../src/index.js';
import { createErasServer } from './fixtures/eras-server.js';

const fixture = fileURLToPath(new URL('./fixtures/eras-server.ts', import.meta.url));
const capabilities = { elicitation: {}, sampling: {}, roots: {} };
const answers = {
  elicit: { action: 'accept', content: { name: 'Ada' } },
  sample: {
    role: 'assistant',
    content: { type: 'text', text: 'Hello' },
    model: 'scripted',
    stopReason: 'endTurn',
  },
  roots: { roots: [{ uri: 'file:///work', name: 'work' }] },
};

type Mode = 'pinned' | 'auto' | 'default' | 'v1';
const modes: Mode[] = ['pinned', 'auto', 'default', 'v1'];
type Where = { kind: 'http'; url: () => string } | { kind: 'stdio' };

/** A connected official client, the era it landed on, and how to call a tool with it. */
interface Connected {
  era: string;
  tools(): Promise<string[]>;
  call(name: string, args?: Record<string, unknown>): Promise<{ content?: unknown; isError?: boolean }>;
  close(): Promise<void>;
}

async function connect(mode: Mode, where: Where): Promise<Connected> {
  if (mode === 'v1') {
    const client = new V1Client({ name: 'v1-client', version: '1.0.0' }, { capabilities });
    client.setRequestHandler(ElicitRequestSchema, async () => answers.elicit as never);
    client.setRequestHandler(CreateMessageRequestSchema, async () => answers.sample as never);
    client.setRequestHandler(ListRootsRequestSchema, async () => answers.roots);
    await client.connect(
      where.kind === 'http'
        ? new V1Http(new URL(where.url()))
        : new V1Stdio({
            command: process.execPath,
            args: ['--import', 'tsx', fixture, 'stdio'],
            stderr: 'ignore',
          }),
    );
    return {
      era: 'legacy',
      tools: async () => (await client.listTools()).tools.map((tool) => tool.name),
      call: (name, args = {}) => client.callTool({ name, arguments: args }) as never,
      close: () => client.close(),
    };
  }
  const versionNegotiation =
    mode === 'pinned' ? { mode: { pin: '2026-07-28' } } : mode === 'auto' ? { mode: 'auto' } : undefined;
  const client = new V2Client({ name: `v2-${mode}`, version: '1.0.0' }, {
    capabilities,
    ...(versionNegotiation ? { versionNegotiation } : {}),
  } as never);
  client.setRequestHandler('elicitation/create', async () => answers.elicit as never);
  client.setRequestHandler('sampling/createMessage', async () => answers.sample as never);
  client.setRequestHandler('roots/list', async () => answers.roots as never);
  await client.connect(
    where.kind === 'http'
      ? new V2Http(new URL(where.url()))
      : new V2Stdio({
          command: process.execPath,
          args: ['--import', 'tsx', fixture, 'stdio'],
          stderr: 'ignore',
        }),
  );
  return {
    era: String(client.getProtocolEra()),
    tools: async () => (await client.listTools()).tools.map((tool) => tool.name),
    call: (name, args = {}) => client.callTool({ name, arguments: args }) as never,
    close: () => client.close(),
  };
}

const textOf = (result: { content?: unknown }) =>
  ((result.content as Array<{ text?: string }>) ?? []).map((block) => block.text).join('');

for (const transport of ['stateless HTTP', 'session HTTP', 'stdio'] as const) {
  describe(`official clients over ${transport}`, () => {
    let handle: ServeHandle | undefined;
    beforeAll(async () => {
      if (transport === 'stdio') return;
      handle = await serve(createErasServer(), {
        transport: { type: 'http', port: 0, session: transport === 'session HTTP' },
      });
    });
    afterAll(async () => {
      await handle?.close();
    });
    const where = (): Where =>
      transport === 'stdio' ? { kind: 'stdio' } : { kind: 'http', url: () => handle?.url as string };

    for (const mode of modes) {
      test(`${mode}: the era it asked for; tools that ask the client work in both styles`, async () => {
        const client = await connect(mode, where());
        try {
          expect(client.era).toBe(mode === 'pinned' || mode === 'auto' ? 'modern' : 'legacy');
          expect(await client.tools()).toEqual(['echo', 'greet_person', 'greet_person_sdk']);
          expect(textOf(await client.call('echo', { message: 'hi' }))).toBe('Echo: hi');
          const greeted = await client.call('greet_person');
          expect(greeted.isError, textOf(greeted)).not.toBe(true);
          expect(textOf(greeted)).toBe('Hello, Ada (1 root(s))');
          const sdkStyle = await client.call('greet_person_sdk');
          expect(textOf(sdkStyle)).toBe('Hello, Ada (state round-1)');
        } finally {
          await client.close();
        }
      }, 60_000);
    }
  });
}
