import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readLines, waitForExit } from '../src/index.js';

describe('readLines', () => {
  it('splits chunks into lines, whatever the chunks', async () => {
    const stream = new PassThrough();
    const lines = readLines(stream, 'the stream');
    stream.write('one\r\ntw');
    stream.write('o\nthree');
    expect(await lines.atLeast(2)).toEqual(['one', 'two']);
    stream.end();
    await lines.find((line) => line === 'three');
  });

  it("waits for a child's line, and fails at once, with its lines, when it exits without it", async () => {
    const child = spawn(
      process.execPath,
      ['-e', "console.error('starting'); setTimeout(() => console.error('listening on 1234'), 10)"],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const stderr = readLines(child.stderr, 'the child’s stderr');
    expect(await stderr.find((line) => line.startsWith('listening'))).toBe('listening on 1234');
    await waitForExit(child);
    await expect(stderr.find((line) => line === 'never', { timeoutMs: 60_000 })).rejects.toThrow(
      /ended \(the stream closed\).*2 recorded, the last: starting \| listening on 1234/,
    );
  });
});
