import { describe, expect, it } from 'vitest';
import { createEventLog } from '../src/index.js';

describe('createEventLog', () => {
  it('find resolves with an entry recorded already, or with the first one to come', async () => {
    const log = createEventLog<number>('numbers');
    log.push(1);
    expect(await log.find((entry) => entry === 1)).toBe(1);
    const later = log.find((entry) => entry > 2);
    log.push(2);
    log.push(3);
    log.push(4);
    expect(await later).toBe(3);
    expect(log.entries).toEqual([1, 2, 3, 4]);
  });

  it('push is bound: the log itself is the callback', async () => {
    const log = createEventLog<string>('words');
    const callback: (word: string) => void = log.push;
    setImmediate(() => callback('hello'));
    expect(await log.atLeast(1)).toEqual(['hello']);
  });

  it('until checks the whole log now and at each entry', async () => {
    const log = createEventLog<string>('words');
    const both = log.until((entries) => entries.includes('a') && entries.includes('b'));
    log.push('a');
    log.push('b');
    expect(await both).toEqual(['a', 'b']);
  });

  it('a wait that times out names what it awaited and what was recorded', async () => {
    const log = createEventLog<{ n: number }>('ticks');
    log.push({ n: 1 });
    await expect(log.atLeast(2, { timeoutMs: 20 })).rejects.toThrow(
      'timed out after 20 ms waiting for 2 entries in ticks: 1 recorded, the last: {"n":1}',
    );
    await expect(log.find(() => false, { timeoutMs: 20, what: 'the third tick' })).rejects.toThrow(
      /waiting for the third tick/,
    );
  });

  it('end fails the waits it leaves unsatisfied at once, and keeps what was recorded', async () => {
    const log = createEventLog<string>("the child's stderr");
    log.push('ready');
    const never = log.find((line) => line === 'done', { timeoutMs: 60_000 });
    log.end('the stream closed');
    await expect(never).rejects.toThrow(
      /the child's stderr ended \(the stream closed\) before a matching entry/,
    );
    expect(await log.find((line) => line === 'ready')).toBe('ready');
    await expect(log.atLeast(2)).rejects.toThrow(/ended/);
  });
});
