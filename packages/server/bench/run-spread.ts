/** A bench figure over several runs: its median and its range (`repeat-http.ts`). */
import { median } from './measure-rounds.js';

/** One figure over the runs that measured it. */
export interface RunSpread {
  median: number;
  min: number;
  max: number;
  /** The runs that had the figure (a row may be absent from a run: `base` without `BENCH_BASE`). */
  runs: number;
}

/** Each named figure's median and range over the runs, rounded to 3 places like the bench's. */
export function spreadOverRuns(runs: ReadonlyArray<Record<string, number>>): Record<string, RunSpread> {
  const values = new Map<string, number[]>();
  for (const run of runs)
    for (const [name, value] of Object.entries(run)) {
      if (!Number.isFinite(value)) continue;
      const list = values.get(name) ?? [];
      list.push(value);
      values.set(name, list);
    }
  const round3 = (value: number) => Math.round(value * 1000) / 1000;
  const spread: Record<string, RunSpread> = {};
  for (const [name, list] of values)
    spread[name] = {
      median: round3(median(list)),
      min: round3(Math.min(...list)),
      max: round3(Math.max(...list)),
      runs: list.length,
    };
  return spread;
}
