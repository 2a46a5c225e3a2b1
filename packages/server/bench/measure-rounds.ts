/** Interleaved rounds after a warm-up: how every bench row is measured. */

/** Latency of one runner, in µs. */
export interface Stats {
  p50Us: number;
  p95Us: number;
}
/** One echo call; the message differs per call. */
export type Runner = (message: string) => Promise<void>;

/** The value at `fraction` of a sorted list. */
export function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}

/** How many calls {@link measureRounds} makes. */
export interface RoundsOptions {
  rounds: number;
  callsPerRound: number;
  /** Warm-up calls per runner, before the first round. */
  warmup: number;
}

/** Warms every runner, then runs them interleaved in rounds (order rotated); returns per-runner p50/p95 in µs. */
export async function measureRounds(
  runners: Record<string, Runner>,
  { rounds, callsPerRound, warmup }: RoundsOptions,
): Promise<Record<string, Stats>> {
  const samples: Record<string, number[]> = {};
  for (const [name, run] of Object.entries(runners)) {
    samples[name] = [];
    for (let i = 0; i < warmup; i++) await run(`warm ${i}`);
  }
  const entries = Object.entries(runners);
  for (let round = 0; round < rounds; round++) {
    // The order rotates each round: no runner always follows the same one (a slow reference leaves
    // work behind — its garbage collection, its sockets — that the next runner would always pay).
    for (let turn = 0; turn < entries.length; turn++) {
      const [name, run] = entries[(round + turn) % entries.length] as [string, Runner];
      const list = samples[name] as number[];
      for (let i = 0; i < callsPerRound; i++) {
        const started = process.hrtime.bigint();
        await run(`hello ${i}`);
        list.push(Number(process.hrtime.bigint() - started) / 1000);
      }
    }
  }
  const result: Record<string, Stats> = {};
  for (const [name, list] of Object.entries(samples)) {
    const sorted = list.sort((a, b) => a - b);
    result[name] = {
      p50Us: Math.round(percentile(sorted, 0.5)),
      p95Us: Math.round(percentile(sorted, 0.95)),
    };
  }
  return result;
}

/** Rounded to three decimals (ratios). */
export const round2 = (value: number) => Math.round(value * 1000) / 1000;
