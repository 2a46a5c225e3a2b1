/**
 * "Did you mean …?" for unknown servers, tools and commands: the nearest names by edit distance,
 * plus names that contain what was typed (users often type the original tool name, not the
 * namespaced one).
 */

function editDistance(a: string, b: string): number {
  const previous = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    let diagonal = previous[0]!;
    previous[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = previous[j]!;
      previous[j] = Math.min(above + 1, previous[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return previous[b.length]!;
}

/** Up to `limit` candidates close to `input`, best first. */
export function suggestNames(input: string, candidates: Iterable<string>, limit = 3): string[] {
  const needle = input.toLowerCase();
  const scored: Array<{ name: string; score: number }> = [];
  for (const name of candidates) {
    const lower = name.toLowerCase();
    const distance = editDistance(needle, lower);
    const contains = lower.includes(needle) || (lower.length >= 3 && needle.includes(lower));
    const threshold = Math.max(2, Math.floor(Math.max(needle.length, lower.length) / 3));
    if (contains || distance <= threshold) scored.push({ name, score: contains ? distance / 10 : distance });
  }
  return scored
    .sort((x, y) => x.score - y.score || x.name.localeCompare(y.name))
    .slice(0, limit)
    .map((entry) => entry.name);
}

/** A sentence to append to a "not found" message, or an empty string. */
export function didYouMean(input: string, candidates: Iterable<string>): string {
  const names = suggestNames(input, candidates);
  return names.length ? ` Did you mean ${names.map((name) => `'${name}'`).join(', ')}?` : '';
}
