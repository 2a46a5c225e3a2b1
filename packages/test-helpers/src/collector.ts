/** Collects values (events a callback receives) and resolves once `count` of them arrived: tests wait on it, never on a sleep. */

/** What {@link createCollector} returns. */
export interface Collector<T> {
  /** Every value received, in order. */
  readonly values: T[];
  /** Resolves when `count` values arrived. */
  readonly arrived: Promise<void>;
  /** Hands it one value (pass as the callback). */
  push(value: T): void;
}

/** A collector that resolves after `count` values. */
export function createCollector<T>(count: number): Collector<T> {
  const values: T[] = [];
  let done: () => void = () => {};
  const arrived = new Promise<void>((resolve) => {
    done = resolve;
  });
  return {
    values,
    arrived,
    push(value: T) {
      values.push(value);
      if (values.length === count) done();
    },
  };
}
