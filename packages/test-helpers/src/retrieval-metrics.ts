/** Retrieval metrics over ranked name lists: Recall@k, MRR and nDCG@10 (binary relevance). */

/** Per-signal quality, as percentages (0–100). */
export interface Quality {
  recall1: number;
  recall5: number;
  recall8: number;
  mrr: number;
  ndcg10: number;
}

/** Accumulates metrics query by query. */
export function createQualityAccumulator() {
  let count = 0;
  const sums = { recall1: 0, recall5: 0, recall8: 0, mrr: 0, ndcg10: 0 };
  return {
    add(ranked: readonly string[], expected: readonly string[]) {
      const wanted = new Set(expected);
      const recallAt = (k: number) =>
        ranked.slice(0, k).filter((name) => wanted.has(name)).length / wanted.size;
      sums.recall1 += recallAt(1);
      sums.recall5 += recallAt(5);
      sums.recall8 += recallAt(8);
      const first = ranked.findIndex((name) => wanted.has(name));
      sums.mrr += first === -1 ? 0 : 1 / (first + 1);
      let dcg = 0;
      ranked.slice(0, 10).forEach((name, index) => {
        if (wanted.has(name)) dcg += 1 / Math.log2(index + 2);
      });
      let ideal = 0;
      for (let index = 0; index < Math.min(wanted.size, 10); index++) ideal += 1 / Math.log2(index + 2);
      sums.ndcg10 += dcg / ideal;
      count++;
    },
    result(): Quality {
      const percent = (value: number) => Math.round((value / Math.max(count, 1)) * 1000) / 10;
      return {
        recall1: percent(sums.recall1),
        recall5: percent(sums.recall5),
        recall8: percent(sums.recall8),
        mrr: percent(sums.mrr),
        ndcg10: percent(sums.ndcg10),
      };
    },
  };
}

/** Median and 95th percentile of durations in ms. */
export function percentiles(durations: number[]): { p50Ms: number; p95Ms: number } {
  const sorted = [...durations].sort((a, b) => a - b);
  const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;
  const round = (value: number) => Math.round(value * 1000) / 1000;
  return { p50Ms: round(at(0.5)), p95Ms: round(at(0.95)) };
}

/** What {@link selectionQuality} reads of a selector's answer: the tools, best first. */
export type RankedSelection = ReadonlyArray<{ tool: { originalName: string } }>;

/**
 * The metrics of a selector's rankings over labelled queries. Queries go in chunks of `chunkSize`:
 * the result objects of one chunk are dropped before the next (with thousands of queries they would
 * otherwise outlive V8's young generation and dwarf the selector's own memory). `onRanked` sees every
 * answer (the bench's `--tune` keeps the rankings).
 */
export async function selectionQuality<Selection extends RankedSelection>(
  selectMany: (queries: string[]) => Promise<Selection[]>,
  queries: ReadonlyArray<{ query: string; expected: readonly string[] }>,
  options: { chunkSize?: number; onRanked?: (selected: Selection, index: number) => void } = {},
): Promise<Quality> {
  const chunkSize = options.chunkSize ?? 200;
  const accumulator = createQualityAccumulator();
  for (let start = 0; start < queries.length; start += chunkSize) {
    const chunk = queries.slice(start, start + chunkSize);
    const results = await selectMany(chunk.map((item) => item.query));
    results.forEach((selected, offset) => {
      accumulator.add(
        selected.map((item) => item.tool.originalName),
        (chunk[offset] as { expected: readonly string[] }).expected,
      );
      options.onRanked?.(selected, start + offset);
    });
  }
  return accumulator.result();
}
