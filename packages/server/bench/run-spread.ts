/** A bench figure over several runs: its median and its range (`repeat-http.ts`). */
import { median, round2 } from './measure-rounds.js';

/** One figure over the runs that measured it. */
export interface RunSpread {
  median: number;
  min: number;
  max: number;
  /** The runs that had the figure (a row may be absent from a run: `base` without `BENCH_BASE`). */
  runs: number;
}

/** Each named figure's median and range over the runs, rounded like the bench's own ratios (`round2`: 3 places). */
export function spreadOverRuns(runs: ReadonlyArray<Record<string, number>>): Record<string, RunSpread> {
  const values = new Map<string, number[]>();
  for (const run of runs)
    for (const [name, value] of Object.entries(run)) {
      if (!Number.isFinite(value)) continue;
      const list = values.get(name) ?? [];
      list.push(value);
      values.set(name, list);
    }
  const spread: Record<string, RunSpread> = {};
  for (const [name, list] of values)
    spread[name] = {
      median: round2(median(list)),
      min: round2(Math.min(...list)),
      max: round2(Math.max(...list)),
      runs: list.length,
    };
  return spread;
}
