import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { waitForClockPast, waitForEvent, waitForExit } from '../src/index.js';

describe('waitForEvent', () => {
  it('resolves with the arguments of the next event its filter accepts', async () => {
    const emitter = new EventEmitter();
    const seen = waitForEvent<[string, number]>(emitter, 'step', { filter: (_name, n) => n > 1 });
    emitter.emit('step', 'one', 1);
    emitter.emit('step', 'two', 2);
    expect(await seen).toEqual(['two', 2]);
    expect(emitter.listenerCount('step')).toBe(0);
    expect(emitter.listenerCount('error')).toBe(0);
  });

  it("waits on an EventTarget (an AbortSignal's abort)", async () => {
    const controller = new AbortController();
    const aborted = waitForEvent(controller.signal, 'abort');
    controller.abort('why');
    const [event] = await aborted;
    expect((event as Event).type).toBe('abort');
  });

  it("rejects with the emitter's error, and names what it awaited when it times out", async () => {
    const emitter = new EventEmitter();
    const failing = waitForEvent(emitter, 'ready');
    emitter.emit('error', new Error('broken'));
    await expect(failing).rejects.toThrow('broken');
    await expect(
      waitForEvent(emitter, 'ready', { timeoutMs: 20, what: 'the server to start' }),
    ).rejects.toThrow('timed out after 20 ms waiting for the server to start');
    expect(emitter.listenerCount('ready')).toBe(0);
  });
});

describe('waitForExit', () => {
  it('resolves on the exit, and at once for a process that has exited already', async () => {
    const child = spawn(process.execPath, ['-e', 'process.exit(3)'], { stdio: 'ignore' });
    expect(await waitForExit(child)).toEqual({ code: 3, signal: null });
    expect(await waitForExit(child, { timeoutMs: 1 })).toEqual({ code: 3, signal: null });
  });

  it('names the process it waited for when it times out', async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      await expect(waitForExit(child, { timeoutMs: 20 })).rejects.toThrow(`process ${child.pid} to exit`);
    } finally {
      child.kill('SIGKILL');
      await waitForExit(child);
    }
  });
});

describe('waitForClockPast', () => {
  it('resolves once the clock is past the moment, given in ms or as an ISO timestamp', async () => {
    const now = Date.now();
    await waitForClockPast(now + 5);
    expect(Date.now()).toBeGreaterThan(now + 5);
    const stamp = new Date().toISOString();
    await waitForClockPast(stamp);
    expect(Date.now()).toBeGreaterThan(Date.parse(stamp));
    await expect(waitForClockPast('yesterday')).rejects.toThrow(/not a time/);
  });
});
