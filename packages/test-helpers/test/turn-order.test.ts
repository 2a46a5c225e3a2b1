import { describe, expect, it } from 'vitest';
import { turnOrder } from '../src/turn-order.js';

/** How often each ordered pair (before → after) occurs, and how often each side goes first. */
function tally(count: number, rounds: number): { follows: Map<string, number>; first: number[] } {
  const follows = new Map<string, number>();
  const first = new Array<number>(count).fill(0);
  for (let round = 0; round < rounds; round++) {
    const order = turnOrder(round, count);
    first[order[0] as number] = (first[order[0] as number] ?? 0) + 1;
    for (let turn = 1; turn < count; turn++) {
      const pair = `${order[turn - 1]}→${order[turn]}`;
      follows.set(pair, (follows.get(pair) ?? 0) + 1);
    }
  }
  return { follows, first };
}

describe('turnOrder', () => {
  it.each([1, 2, 3, 4, 5, 6, 7])('with %i sides, every round runs each side once', (count) => {
    for (let round = 0; round < 4 * count; round++) {
      expect([...turnOrder(round, count)].sort((a, b) => a - b)).toEqual([...Array(count).keys()]);
    }
  });

  it.each([2, 3, 4, 5, 6, 7])(
    'with %i sides, 2 × count rounds put each side first twice and after every other side twice',
    (count) => {
      const { follows, first } = tally(count, 2 * count);
      expect(first).toEqual(new Array(count).fill(2));
      expect(follows.size).toBe(count * (count - 1));
      expect(new Set(follows.values())).toEqual(new Set([2]));
    },
  );

  it('does not keep one neighbour: side 1 follows side 0 in a quarter of the rounds of four sides', () => {
    // The rotation this replaces put side 1 right after side 0 in three rounds of four.
    const { follows } = tally(4, 8);
    expect(follows.get('0→1')).toBe(2);
  });
});
