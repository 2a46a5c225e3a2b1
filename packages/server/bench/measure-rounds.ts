/** Interleaved rounds after a warm-up: how every bench row is measured. */

import { turnOrder } from '@switchboard/test-helpers';
import { processCpuNs } from './process-cpu.js';

/** Latency of one runner, in µs; with a server pid, the server's CPU per call. */
export interface Stats {
  p50Us: number;
  p95Us: number;
  /** Each round's p50, in round order: what {@link pairedRatio} compares. */
  roundP50Us: number[];
  /** The runner's server process CPU per call over all rounds, in µs (Linux only). */
  cpuUsPerCall?: number;
  /** Each round's server CPU per call, in µs (Linux only). */
  roundCpuUs?: number[];
}
/** One echo call; the message differs per call. */
export type Runner = (message: string) => Promise<void>;

/** The value at `fraction` of a sorted list. */
export function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}

/** The median of a list (not modified). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** How many calls {@link measureRounds} makes. */
export interface RoundsOptions {
  rounds: number;
  callsPerRound: number;
  /** Warm-up calls per runner, before the first round. */
  warmup: number;
  /** The pid of the server each runner calls, to read its CPU time between rounds. */
  serverPids?: Record<string, number | undefined>;
}

/**
 * Warms every runner, then runs them interleaved in rounds (turnOrder); returns per-runner
 * p50/p95 in µs, each round's p50, and (given the server's pid) the server's CPU per call.
 */
export async function measureRounds(
  runners: Record<string, Runner>,
  { rounds, callsPerRound, warmup, serverPids = {} }: RoundsOptions,
): Promise<Record<string, Stats>> {
  const samples: Record<string, number[]> = {};
  const roundP50s: Record<string, number[]> = {};
  const roundCpus: Record<string, number[]> = {};
  for (const [name, run] of Object.entries(runners)) {
    samples[name] = [];
    roundP50s[name] = [];
    roundCpus[name] = [];
    for (let i = 0; i < warmup; i++) await run(`warm ${i}`);
  }
  const entries = Object.entries(runners);
  const round: number[] = [];
  for (let index = 0; index < rounds; index++) {
    // Each runner follows every other equally often (turnOrder): a slow reference leaves work
    // behind — its garbage collection, its sockets — that the runner after it pays.
    for (const turn of turnOrder(index, entries.length)) {
      const [name, run] = entries[turn] as [string, Runner];
      const list = samples[name] as number[];
      round.length = 0;
      const cpuBefore = processCpuNs(serverPids[name]);
      for (let i = 0; i < callsPerRound; i++) {
        const started = process.hrtime.bigint();
        await run(`hello ${i}`);
        round.push(Number(process.hrtime.bigint() - started) / 1000);
      }
      const cpuAfter = processCpuNs(serverPids[name]);
      if (cpuBefore !== undefined && cpuAfter !== undefined)
        (roundCpus[name] as number[]).push((cpuAfter - cpuBefore) / 1000 / callsPerRound);
      list.push(...round);
      (roundP50s[name] as number[]).push(median(round));
    }
  }
  const result: Record<string, Stats> = {};
  for (const [name, list] of Object.entries(samples)) {
    const sorted = list.sort((a, b) => a - b);
    const cpus = roundCpus[name] as number[];
    result[name] = {
      p50Us: Math.round(percentile(sorted, 0.5)),
      p95Us: Math.round(percentile(sorted, 0.95)),
      roundP50Us: roundP50s[name] as number[],
      ...(cpus.length === rounds
        ? { cpuUsPerCall: round1(cpus.reduce((sum, cpu) => sum + cpu, 0) / rounds), roundCpuUs: cpus }
        : {}),
    };
  }
  return result;
}

/**
 * `row` over `baseline`, paired by round: the median of each round's p50 ratio. Rounds run side by
 * side, so a burst of load from elsewhere lands on both sides of a pair; pooling every call and
 * comparing the two p50s instead let one noisy stretch move a whole run's ratio by ±15 %.
 */
export function pairedRatio(row: Stats, baseline: Stats): number {
  const ratios = row.roundP50Us.map((p50, index) => p50 / (baseline.roundP50Us[index] as number));
  return round2(median(ratios));
}

/** `row`'s server CPU per call over `baseline`'s, paired by round (`undefined` without CPU figures). */
export function pairedCpuRatio(row: Stats, baseline: Stats): number | undefined {
  if (row.roundCpuUs === undefined || baseline.roundCpuUs === undefined) return undefined;
  const ratios = row.roundCpuUs.map((cpu, index) => cpu / (baseline.roundCpuUs?.[index] as number));
  return round2(median(ratios));
}

/** Rounded to three decimals (ratios). */
export const round2 = (value: number) => Math.round(value * 1000) / 1000;
const round1 = (value: number) => Math.round(value * 10) / 10;
