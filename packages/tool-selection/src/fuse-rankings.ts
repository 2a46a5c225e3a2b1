/**
 * Hybrid fusion of the dense (embedding) and lexical (BM25) rankings into one score per tool.
 * See the README for the leave-one-dataset-out figures behind the defaults.
 */

/** How the two rankings become one. */
export interface FusionOptions {
  /**
   * `score`: weighted sum of normalised scores (BM25 divided by the best BM25 score; cosine
   * min-max scaled over the dense candidates). `rrf`: reciprocal-rank fusion, Σ weight / (rrfK + rank).
   * @default 'score'
   */
  method?: 'score' | 'rrf';
  /** Weight of the dense signal; the lexical one gets `1 - denseWeight`. @default 0.4 */
  denseWeight?: number;
  /**
   * A query with more distinct content words than this is "long": it gets `longQueryDenseWeight`
   * instead of `denseWeight`. Why: a long request names many specific words that BM25 matches
   * exactly, while mean pooling blurs its many intents into one vector. With one weight for every
   * query, the tool sets with long requests (Seal-Tools, BFCL, StableToolBench) ranked worse hybrid
   * than BM25 alone, by up to 10 points of Recall@5 (README, "Fusion"). @default 15
   */
  longQueryTerms?: number;
  /** Dense weight of long queries (see `longQueryTerms`). @default 0.1 */
  longQueryDenseWeight?: number;
  /** The `k` of reciprocal-rank fusion. @default 60 */
  rrfK?: number;
  /**
   * Cosine similarity a dense hit needs to count. When no candidate reaches it, the threshold is
   * lifted for that query (a weak dense signal still beats none); when some do, the others
   * contribute nothing. @default 0.7
   */
  denseThreshold?: number;
  /** Candidates taken from each signal before fusion. @default 64 */
  candidates?: number;
}

/** A ranked hit from one signal. */
export interface RankedHit {
  id: string;
  score: number;
}

/** One tool's fused score and the signals behind it. */
export interface FusedHit {
  id: string;
  score: number;
  dense?: { rank: number; score: number };
  lexical?: { rank: number; score: number };
}

/** What fusion knows of the query besides the two rankings. */
export interface FusionQuery {
  /** Distinct content words of the query (`tokenize(query)`, stopwords dropped). */
  terms?: number;
}

/**
 * Defaults of {@link FusionOptions}: the weights with the best worst case over the five training
 * folders left out one at a time (README, "Fusion"); MetaTool was not used to choose them.
 */
export const defaultFusion: Required<FusionOptions> = {
  method: 'score',
  denseWeight: 0.4,
  longQueryTerms: 15,
  longQueryDenseWeight: 0.1,
  rrfK: 60,
  denseThreshold: 0.7,
  candidates: 64,
};

/** Fuses two best-first rankings (either may be empty) into one best-first list. */
export function fuseRankings(
  dense: readonly RankedHit[],
  lexical: readonly RankedHit[],
  options: FusionOptions = {},
  query: FusionQuery = {},
): FusedHit[] {
  const method = options.method ?? defaultFusion.method;
  const long = (query.terms ?? 0) > (options.longQueryTerms ?? defaultFusion.longQueryTerms);
  const denseWeight = long
    ? (options.longQueryDenseWeight ?? defaultFusion.longQueryDenseWeight)
    : (options.denseWeight ?? defaultFusion.denseWeight);
  const threshold = options.denseThreshold ?? defaultFusion.denseThreshold;
  const rrfK = options.rrfK ?? defaultFusion.rrfK;
  const byId = new Map<string, FusedHit>();

  let denseCounted = dense;
  if (dense.length > 0 && (dense[0] as RankedHit).score >= threshold) {
    denseCounted = dense.filter((hit) => hit.score >= threshold);
  }
  // With only one signal present, it gets the full weight: no query is penalised for the other's silence.
  const effectiveDenseWeight = lexical.length === 0 ? 1 : denseCounted.length === 0 ? 0 : denseWeight;
  const lexicalWeight = 1 - effectiveDenseWeight;

  const entry = (id: string): FusedHit => {
    let hit = byId.get(id);
    if (!hit) {
      hit = { id, score: 0 };
      byId.set(id, hit);
    }
    return hit;
  };

  if (method === 'rrf') {
    denseCounted.forEach((hit, index) => {
      const fused = entry(hit.id);
      fused.dense = { rank: index + 1, score: hit.score };
      fused.score += (2 * effectiveDenseWeight) / (rrfK + index + 1);
    });
    lexical.forEach((hit, index) => {
      const fused = entry(hit.id);
      fused.lexical = { rank: index + 1, score: hit.score };
      fused.score += (2 * lexicalWeight) / (rrfK + index + 1);
    });
  } else {
    const top = denseCounted[0]?.score ?? 0;
    const bottom = dense[dense.length - 1]?.score ?? 0;
    const span = top - bottom;
    denseCounted.forEach((hit, index) => {
      const fused = entry(hit.id);
      fused.dense = { rank: index + 1, score: hit.score };
      fused.score += effectiveDenseWeight * (span > 1e-9 ? (hit.score - bottom) / span : 1);
    });
    const best = lexical[0]?.score ?? 0;
    lexical.forEach((hit, index) => {
      const fused = entry(hit.id);
      fused.lexical = { rank: index + 1, score: hit.score };
      fused.score += lexicalWeight * (best > 0 ? hit.score / best : 0);
    });
  }
  return [...byId.values()].sort((a, b) => b.score - a.score);
}
