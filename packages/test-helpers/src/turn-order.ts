/**
 * The order in which a bench runs its sides in one round. A side pays for what the side before it
 * leaves behind — its garbage, its timers, its sockets (the SDK client's fetch, most) — so each side
 * must follow every other side equally often. A plain rotation (`(round + turn) % count`) does not:
 * it keeps the cyclic order, and one side follows the same neighbour in every round but one.
 *
 * This is a Williams design: over `2 × count` rounds every side goes first twice and follows every
 * other side exactly twice (the first `count` rows balance an even count, the mirrored rows that
 * follow balance an odd one). Fewer rounds than that are balanced as far as they go.
 */
export function turnOrder(round: number, count: number): number[] {
  const shift = round % count;
  // 0, 1, n−1, 2, n−2, …: the steps between neighbours are all different modulo n, so shifting the
  // row meets every ordered pair once.
  const row = Array.from({ length: count }, (_, turn) =>
    turn === 0 ? 0 : turn % 2 === 1 ? (turn + 1) / 2 : count - turn / 2,
  ).map((side) => (side + shift) % count);
  return Math.floor(round / count) % 2 === 0 ? row : row.reverse();
}
