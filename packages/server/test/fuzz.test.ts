import { spawn } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { serve } from '../src/index.js';
import { createEchoServer } from './fixtures/echo-server.js';
import { createFuzzer, type Expectation, type FuzzInput } from './fuzz-inputs.js';

const inputsPerTransport = 10_000;
const fixture = fileURLToPath(new URL('./fixtures/echo-server.ts', import.meta.url));
const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

type Message = {
  jsonrpc?: string;
  id?: string | number | null;
  result?: unknown;
  error?: { code: number; message: string };
};

function checkAnswer(expectation: Expectation, message: Message | undefined, input: string): void {
  const where = `input: ${input.slice(0, 200)}`;
  if (expectation.kind === 'none') {
    expect(message, where).toBeUndefined();
    return;
  }
  expect(message, where).toBeDefined();
  expect(message?.jsonrpc, where).toBe('2.0');
  if (expectation.kind === 'result') {
    expect(message?.id, where).toBe(expectation.id);
    expect(message?.result, where).toBeTypeOf('object');
    return;
  }
  expect(message?.error?.code, `${where}\nanswer: ${JSON.stringify(message)}`).toBe(expectation.code);
  expect(message?.error?.message, where).toBeTypeOf('string');
  expect(message?.id, where).toBe(expectation.id);
}

describe('fuzz', () => {
  test(`${inputsPerTransport} malformed or random inputs over HTTP are each answered per spec`, async () => {
    const handle = await serve(createEchoServer(), {
      transport: { type: 'http', port: 0, json: true, maxBodyBytes: 64 * 1024 },
    });
    cleanups.push(() => handle.close());
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    cleanups.push(() => agent.destroy());
    const url = new URL(handle.url as string);
    const post = (
      body: string | Buffer,
      extraHeaders: Record<string, string> = {},
    ): Promise<{ status: number; body: string }> =>
      new Promise((resolve, reject) => {
        const request = httpRequest(
          {
            agent,
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
              ...extraHeaders,
            },
          },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () =>
              resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
            );
          },
        );
        request.on('error', reject);
        request.end(body);
      });

    const fuzzer = createFuzzer(20261130);
    let oversized = 0;
    let index = 0;
    const worker = async () => {
      while (index < inputsPerTransport) {
        index += 1;
        // Every 500th input is an oversized body: 413, and the connection is dropped.
        if (index % 500 === 0) {
          oversized += 1;
          const response = await post(Buffer.alloc(70 * 1024, 'x'));
          expect(response.status).toBe(413);
          expect(JSON.parse(response.body)).toMatchObject({ error: { code: -32600 } });
          continue;
        }
        const input: FuzzInput = fuzzer.next();
        const response = await post(input.text, input.headers);
        if (input.expect.kind === 'none') {
          expect(response.status, input.text).toBe(202);
          checkAnswer(input.expect, undefined, input.text);
          continue;
        }
        // 2026-07-28: refusals of the ladder are 400, an unknown method 404.
        expect([200, 400, 404], input.text).toContain(response.status);
        checkAnswer(input.expect, JSON.parse(response.body) as Message, input.text);
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    expect(oversized).toBe(inputsPerTransport / 500);
    const after = await post(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 'last',
        method: 'tools/call',
        params: { name: 'echo', arguments: { message: 'still here' } },
      }),
    );
    expect(JSON.parse(after.body)).toMatchObject({
      id: 'last',
      result: { content: [{ text: 'Echo: still here' }] },
    });
  }, 180_000);

  test(`${inputsPerTransport} malformed or random inputs over stdio (split frames, oversized lines) are each answered per spec`, async () => {
    const maxMessageBytes = 64 * 1024;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fixture, 'stdio', '--max-message-bytes', String(maxMessageBytes)],
      {
        stdio: ['pipe', 'pipe', 'ignore'],
      },
    );
    cleanups.push(() => {
      child.kill();
    });
    let exited = false;
    child.on('exit', () => {
      exited = true;
    });
    const received: Message[] = [];
    let waiting: (() => void) | undefined;
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      let newline = buffer.indexOf('\n');
      while (newline !== -1) {
        received.push(JSON.parse(buffer.slice(0, newline)) as Message);
        buffer = buffer.slice(newline + 1);
        newline = buffer.indexOf('\n');
      }
      waiting?.();
    });
    // Checked at each chunk of answers; the server's exit fails it at once, 60 s bound it.
    const until = (predicate: () => boolean) =>
      new Promise<void>((resolve, reject) => {
        const settle = (error?: Error) => {
          clearTimeout(timer);
          waiting = undefined;
          child.off('exit', onExit);
          if (error) reject(error);
          else resolve();
        };
        const onExit = () => settle(new Error('stdio fuzz: the server exited while answers were awaited'));
        const timer = setTimeout(
          () => settle(new Error('stdio fuzz: timed out after 60 s waiting for answers')),
          60_000,
        );
        if (exited) return onExit();
        child.once('exit', onExit);
        waiting = () => {
          if (predicate()) settle();
        };
        waiting();
      });
    const write = (text: string) =>
      new Promise<void>((resolve) => {
        if (child.stdin.write(text)) resolve();
        else child.stdin.once('drain', resolve);
      });

    const fuzzer = createFuzzer(4242);
    const batchSize = 250;
    let sent = 0;
    let batchNumber = 0;
    while (sent < inputsPerTransport) {
      batchNumber += 1;
      const batch: FuzzInput[] = [];
      for (let i = 0; i < batchSize && sent < inputsPerTransport; i++, sent++) {
        if (sent % 1000 === 999) {
          // An oversized line: rejected with -32600, the following lines still parse.
          batch.push({
            text: `{"jsonrpc":"2.0","id":"big","method":"ping","params":{"x":"${'y'.repeat(maxMessageBytes)}"}}`,
            expect: { kind: 'error', code: -32600, id: null },
          });
          continue;
        }
        const input = fuzzer.next();
        batch.push(input.stdio === undefined ? input : { ...input, expect: input.stdio });
      }
      for (const input of batch) {
        const line = `${input.text}\n`;
        // Some frames arrive in pieces, as a pipe may deliver them.
        if (fuzzer.random() < 0.1 && line.length > 4) {
          const cut = 1 + Math.floor(fuzzer.random() * (line.length - 2));
          await write(line.slice(0, cut));
          await new Promise((resolve) => setImmediate(resolve));
          await write(line.slice(cut));
        } else {
          await write(line);
        }
      }
      const sentinel = `sentinel-${batchNumber}`;
      await write(`${JSON.stringify({ jsonrpc: '2.0', id: sentinel, method: 'ping' })}\n`);
      const withId = new Map<string | number, FuzzInput>();
      const nullIdCodes: number[] = [];
      for (const input of batch) {
        if (input.expect.kind === 'none') continue;
        if (input.expect.id === null) nullIdCodes.push((input.expect as { code: number }).code);
        else withId.set(input.expect.id, input);
      }
      await until(
        () =>
          received.some((message) => message.id === sentinel) &&
          received.filter((message) => message.id !== null && message.id !== sentinel).length >= withId.size,
      );
      const answers = received.splice(0);
      const byId = new Map(
        answers.filter((message) => message.id !== null).map((message) => [message.id, message]),
      );
      for (const [id, input] of withId) checkAnswer(input.expect, byId.get(id), input.text);
      const nullAnswers = answers
        .filter((message) => message.id === null)
        .map((message) => message.error?.code);
      expect(nullAnswers.sort()).toEqual(nullIdCodes.sort());
      // Nothing unexpected: every answer belongs to an input that deserved one.
      expect(answers.length).toBe(withId.size + nullIdCodes.length + 1);
    }
    await write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 'last', method: 'tools/call', params: { name: 'echo', arguments: { message: 'alive' } } })}\n`,
    );
    await until(() => received.some((message) => message.id === 'last'));
    expect(received.find((message) => message.id === 'last')).toMatchObject({
      result: { content: [{ text: 'Echo: alive' }] },
    });
    expect(exited).toBe(false);
  }, 240_000);
});
