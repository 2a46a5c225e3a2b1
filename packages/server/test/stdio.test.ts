import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { readLines } from '@switchboard/test-helpers';
import { afterEach, expect, test } from 'vitest';

const fixture = fileURLToPath(new URL('./fixtures/echo-server.ts', import.meta.url));
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

test('the raw SDK client drives a child-process server over stdio', async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', fixture, 'stdio'],
    stderr: 'pipe',
  });
  const stderr = readLines(transport.stderr as Readable, "the server's stderr");
  const client = new Client({ name: 'stdio-test', version: '1.0.0' });
  await client.connect(transport);
  cleanups.push(() => client.close());
  expect(client.getServerVersion()).toMatchObject({ name: 'echo-fixture', version: '1.0.0' });
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toEqual(['add', 'echo', 'sleep']);
  expect(await client.callTool({ name: 'echo', arguments: { message: 'hi' } })).toMatchObject({
    content: [{ type: 'text', text: 'Echo: hi' }],
  });
  const bad = await client.callTool({ name: 'add', arguments: { a: 1 } });
  expect(bad.isError).toBe(true);
  // Logs go to stderr, never to stdout (which would corrupt the protocol).
  await stderr.find((line) => line.includes('serving on stdio'));
});

test('stdout carries nothing but JSON-RPC lines', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, 'stdio'], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  cleanups.push(async () => {
    child.kill();
  });
  const stdout = readLines(child.stdout, "the server's stdout");
  child.stdin.write(
    `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`,
  );
  child.stdin.write(
    '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":"x"}}}\n',
  );
  const lines = await stdout.atLeast(2, { timeoutMs: 30_000 });
  expect(lines.filter(Boolean)).toHaveLength(2);
  for (const line of lines) {
    expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
  }
});
