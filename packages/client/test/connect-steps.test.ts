// The first minute with a stdio server: how the connect steps start it (once where they can),
// and how what goes wrong is told (once, with the right code, its stderr once, no advice that
// does not apply). Real child processes; the starts are counted by the fixture itself.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTemporaryDirectories, fixtureServerScript } from '@switchboard/test-helpers';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientError, createMcpClient, type McpClient } from '../src/index.js';
import { createRecordingLogger, fixture } from './helpers/servers.js';

const temporary = createTemporaryDirectories();
const open: McpClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
  temporary.removeAll();
});

/** A stdio entry of the start-counting fixture, and how to read how often it started. */
function counted(mode: 'crash' | 'exit-on-request' | 'serve', operand?: string) {
  const startsFile = join(temporary.make('sb-starts-'), 'starts.log');
  return {
    entry: {
      command: process.execPath,
      args: [fixture('start-counting-server.mjs'), mode, ...(operand === undefined ? [] : [operand])],
      env: { SB_STARTS_FILE: startsFile },
    },
    starts: () => readFileSync(startsFile, 'utf8').split('\n').filter(Boolean).length,
  };
}

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe('starting a stdio server', () => {
  it('a mistyped command is SPAWN_FAILED, a ClientError naming server and command — also under a short connect deadline', async () => {
    for (const options of [{}, { initializeTimeoutMs: 2000 }]) {
      const error = await createMcpClient('typo', { command: 'nodde', args: ['server.js'] }, options).catch(
        (caught: unknown) => caught,
      );
      expect(error).toMatchObject({ code: 'SPAWN_FAILED', context: { server: 'typo', command: 'nodde' } });
      expect((error as Error).message).toMatch(/"typo".*"nodde" was not found/);
    }
  });

  it('a server that crashes before answering is told once: its exit, its stderr once, no stdout advice', async () => {
    const marker = `missing-module-${Math.random().toString(36).slice(2)}`;
    const server = counted('crash', marker);
    const error = await createMcpClient('crashy', server.entry).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ClientError);
    expect(error).toMatchObject({ code: 'CONNECTION_FAILED', context: { server: 'crashy', exitCode: 1 } });
    const message = (error as Error).message;
    expect(message).toMatch(/"crashy" .* exited with code 1 before answering initialize/);
    expect(occurrences(message, marker)).toBe(1);
    expect(message).not.toMatch(/JSON-RPC|stdout/);
  });

  it('a 2025 server that exits on the version probe is started once more and reached as legacy, without a warning', async () => {
    const { lines, logger } = createRecordingLogger();
    const client = await createMcpClient(
      'strict',
      { command: process.execPath, args: [fixtureServerScript('exit-before-initialize-server')] },
      { logger },
    );
    open.push(client);
    expect(client.era).toBe('legacy');
    expect(await client.callTool('echo', { message: 'second life' })).toMatchObject({
      content: [{ type: 'text', text: 'second life' }],
    });
    expect(
      lines.some((line) => line.startsWith('info') && /exited on the server\/discover probe/.test(line)),
    ).toBe(true);
    expect(lines.some((line) => line.startsWith('warn'))).toBe(false);
  });

  it('a server that exits on the probe and again on initialize is reported as exited, not started a third time', async () => {
    const server = counted('exit-on-request');
    const error = await createMcpClient('strict', server.entry).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'CONNECTION_FAILED', context: { exitCode: 3 } });
    expect((error as Error).message).toMatch(/exited with code 3 before answering initialize/);
    expect(server.starts()).toBe(2);
  });

  it('a healthy server of either era is started once', async () => {
    for (const [script, era] of [
      ['sdk-v2-server.mjs', 'modern'],
      ['counter-server.mjs', 'legacy'],
    ] as const) {
      const server = counted('serve', fixture(script));
      const client = await createMcpClient('once', server.entry);
      open.push(client);
      expect(client.era).toBe(era);
      expect(server.starts()).toBe(1);
    }
  });
});
