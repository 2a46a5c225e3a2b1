/**
 * A short, stable, dependency-free hash for tool names. Not cryptographic: it only has to be
 * deterministic across runs and machines and spread similar inputs apart, and it must not pull
 * `node:crypto` into core (core also runs in browsers and edge runtimes).
 */

const fnvOffset = 0x811c9dc5;
const fnvPrime = 0x01000193;

/** Number of base-36 characters {@link stableHash} returns. */
export const stableHashLength = 6;

/** A 6-character base-36 hash of `text` (FNV-1a over UTF-16 code units, ~31 bits). */
export function stableHash(text: string): string {
  let hash = fnvOffset;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, fnvPrime);
  }
  // A final avalanche step, so inputs differing only in their last character differ in every digit.
  hash ^= hash >>> 15;
  hash = Math.imul(hash, 0x2c1b3c6d);
  hash ^= hash >>> 12;
  const value = (hash >>> 0) % 36 ** stableHashLength;
  return value.toString(36).padStart(stableHashLength, '0');
}
