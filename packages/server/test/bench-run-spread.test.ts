import { describe, expect, test } from 'vitest';
import { spreadOverRuns } from '../bench/run-spread.js';

describe('spreadOverRuns (the bench across runs)', () => {
  test('median and range of each figure, over the runs that had it', () => {
    const spread = spreadOverRuns([
      { switchboard: 1.2, minimal: 1.01, base: 1.15 },
      { switchboard: 1.1, minimal: 1.2 },
      { switchboard: 1.3, minimal: 1.05, base: 1.05 },
      { switchboard: 1.15, minimal: 1.03 },
    ]);
    expect(spread.switchboard).toEqual({ median: 1.175, min: 1.1, max: 1.3, runs: 4 });
    expect(spread.minimal).toEqual({ median: 1.04, min: 1.01, max: 1.2, runs: 4 });
    expect(spread.base).toEqual({ median: 1.1, min: 1.05, max: 1.15, runs: 2 });
    // An odd count takes the middle value, not a mean.
    expect(spreadOverRuns([{ a: 3 }, { a: 1 }, { a: 100 }]).a?.median).toBe(3);
  });

  test('a figure a run could not measure (NaN) is left out, not counted as a run', () => {
    const spread = spreadOverRuns([{ switchboardCpu: Number.NaN }, { switchboardCpu: 1.3 }]);
    expect(spread.switchboardCpu).toEqual({ median: 1.3, min: 1.3, max: 1.3, runs: 1 });
    expect(spreadOverRuns([])).toEqual({});
  });
});
