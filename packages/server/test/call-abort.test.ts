import { describe, expect, test } from 'vitest';
import { CallAbort, CallSignalCarrier } from '../src/cancellation/call-abort.js';

describe('CallAbort', () => {
  test('a signal asked for before the cancellation is aborted by it, with its reason', () => {
    const abort = new CallAbort();
    const signal = abort.signal;
    let heard: unknown;
    signal.addEventListener('abort', () => {
      heard = signal.reason;
    });
    expect(abort.aborted).toBe(false);
    abort.abort('client went away');
    expect(abort.aborted).toBe(true);
    expect(signal.aborted).toBe(true);
    expect(heard).toBe('client went away');
    expect(abort.signal).toBe(signal);
  });

  test('a signal first asked for after the cancellation is already aborted, with its reason', () => {
    const abort = new CallAbort();
    abort.abort('cancelled');
    abort.abort('a second time is ignored');
    expect(abort.aborted).toBe(true);
    expect(abort.signal.aborted).toBe(true);
    expect(abort.signal.reason).toBe('cancelled');
  });

  test('a given signal is handed out as is and decides whether the call is aborted', () => {
    const controller = new AbortController();
    const abort = new CallAbort(controller.signal);
    expect(abort.signal).toBe(controller.signal);
    abort.abort('ignored: the owner of the signal cancels');
    expect(abort.aborted).toBe(false);
    controller.abort('owner');
    expect(abort.aborted).toBe(true);
  });
});

describe('CallSignalCarrier', () => {
  test('signal is an own enumerable property, kept by spread, and follows the call', () => {
    const abort = new CallAbort();
    const carrier = new CallSignalCarrier(abort);
    expect(Object.keys(carrier)).toContain('signal');
    const copy = { ...carrier };
    expect(copy.signal).toBe(carrier.signal);
    abort.abort('gone');
    expect(copy.signal.aborted).toBe(true);
    expect(copy.signal.reason).toBe('gone');
  });
});
