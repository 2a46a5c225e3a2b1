/**
 * The next event of an emitter (Node's `EventEmitter`, a `ChildProcess`, a socket) or of an
 * `EventTarget` (an `AbortSignal`), as a promise: `events.once` with a failure bound that names
 * what was awaited, and a filter for the one event that matters.
 */
import type { EventEmitter } from 'node:events';
import { defaultWaitTimeoutMs, type WaitOptions, waitTimedOut } from './wait-options.js';

/** Options of {@link waitForEvent}. */
export interface WaitForEventOptions<A extends unknown[]> extends WaitOptions {
  /** Only an event whose arguments it accepts counts. @default every event */
  filter?: (...args: A) => boolean;
}

function isEventTarget(target: EventEmitter | EventTarget): target is EventTarget {
  return typeof (target as EventTarget).addEventListener === 'function';
}

/**
 * Resolves with the arguments of the next `name` event (an `EventTarget`'s: `[event]`) that
 * `filter` accepts. An emitter's `error` event, while waiting for another, rejects with it.
 */
export function waitForEvent<A extends unknown[] = unknown[]>(
  target: EventEmitter | EventTarget,
  name: string,
  options: WaitForEventOptions<A> = {},
): Promise<A> {
  const timeoutMs = options.timeoutMs ?? defaultWaitTimeoutMs;
  return new Promise<A>((resolve, reject) => {
    const cleanups: Array<() => void> = [];
    const finish = () => {
      clearTimeout(timer);
      for (const cleanup of cleanups) cleanup();
    };
    const listener = (...args: A) => {
      if (options.filter && !options.filter(...args)) return;
      finish();
      resolve(args);
    };
    const timer = setTimeout(() => {
      finish();
      reject(waitTimedOut(options.what ?? `the '${name}' event`, timeoutMs));
    }, timeoutMs);
    if (isEventTarget(target)) {
      const onEvent = (event: Event) => listener(...([event] as unknown as A));
      target.addEventListener(name, onEvent);
      cleanups.push(() => target.removeEventListener(name, onEvent));
      return;
    }
    const onEvent = (...args: unknown[]) => listener(...(args as A));
    target.on(name, onEvent);
    cleanups.push(() => target.off(name, onEvent));
    if (name !== 'error') {
      const onError = (error: unknown) => {
        finish();
        reject(error);
      };
      target.on('error', onError);
      cleanups.push(() => target.off('error', onError));
    }
  });
}
