import { describe, expect, it } from 'vitest';
import { fuseRankings } from '../src/index.js';

describe('fuseRankings', () => {
  it('drops dense hits under the threshold when some pass it', () => {
    const fused = fuseRankings(
      [
        { id: 'a', score: 0.9 },
        { id: 'b', score: 0.5 },
      ],
      [{ id: 'c', score: 3 }],
      { denseThreshold: 0.7 },
    );
    expect(fused.find((hit) => hit.id === 'b')).toBeUndefined();
    expect(fused.map((hit) => hit.id).sort()).toEqual(['a', 'c']);
  });

  it('lifts the threshold when no dense hit passes it', () => {
    const fused = fuseRankings(
      [
        { id: 'a', score: 0.5 },
        { id: 'b', score: 0.4 },
      ],
      [],
      { denseThreshold: 0.7 },
    );
    expect(fused.map((hit) => hit.id)).toEqual(['a', 'b']);
    expect(fused[0]?.dense).toEqual({ rank: 1, score: 0.5 });
  });

  it('ranks a tool found by both signals above tools found by one (rrf and score)', () => {
    for (const method of ['rrf', 'score'] as const) {
      const fused = fuseRankings(
        [
          { id: 'x', score: 0.8 },
          { id: 'both', score: 0.79 },
          { id: 'z', score: 0.5 },
        ],
        [
          { id: 'y', score: 10 },
          { id: 'both', score: 9.5 },
          { id: 'w', score: 1 },
        ],
        { method, denseWeight: 0.5, denseThreshold: 0 },
      );
      expect(fused[0]?.id).toBe('both');
      expect(fused[0]?.dense?.rank).toBe(2);
      expect(fused[0]?.lexical?.rank).toBe(2);
    }
  });

  it('gives a lone signal its full weight', () => {
    const fused = fuseRankings([], [{ id: 'only', score: 2 }]);
    expect(fused[0]?.score).toBeCloseTo(1);
  });

  it('weighs the dense signal less for a long query', () => {
    const dense = [
      { id: 'semantic', score: 0.9 },
      { id: 'lexical', score: 0.6 },
      { id: 'other', score: 0.3 },
    ];
    const lexical = [
      { id: 'lexical', score: 10 },
      { id: 'semantic', score: 6 },
    ];
    const options = { denseWeight: 0.7, longQueryTerms: 15, longQueryDenseWeight: 0.1, denseThreshold: 0 };
    expect(fuseRankings(dense, lexical, options, { terms: 15 })[0]?.id).toBe('semantic');
    expect(fuseRankings(dense, lexical, options, { terms: 16 })[0]?.id).toBe('lexical');
    // Without the query's length the weight is denseWeight.
    expect(fuseRankings(dense, lexical, options)[0]?.id).toBe('semantic');
  });
});
