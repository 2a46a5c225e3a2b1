/**
 * The Unicode TR39 "skeleton" of a string: two strings that look alike to a person have the same
 * skeleton (`read_fiIe` and `reаd_file`, with a capital I and a Cyrillic а, both give `read_file`).
 * The mapping is Unicode's confusables.txt as the `unhomoglyph` package ships it (maintained by the
 * markdown-it authors). That package builds a 6,000-way pattern when loaded (~50 ms), so it is
 * loaded only when a non-ASCII name appears; ASCII names use its eight ASCII entries, kept here
 * and checked against the package by a test.
 */

/** The ASCII entries of confusables.txt (as `unhomoglyph` 1.0.6 has them). */
export const asciiConfusables: Readonly<Record<string, string>> = {
  '0': 'O',
  '1': 'l',
  '`': "'",
  '"': "''",
  '|': 'l',
  I: 'l',
  '%': 'º/₀',
  m: 'rn',
};

const nonAscii = /[\u0080-\u{10FFFF}]/u;
const asciiConfusable = /[01`"|I%m]/g;

/** A function from a string to its skeleton. */
export type SkeletonOf = (text: string) => string;

/** The skeleton of an ASCII string (other strings need {@link loadSkeleton}). */
export function asciiSkeleton(text: string): string {
  return text.replace(asciiConfusable, (character) => asciiConfusables[character] ?? character);
}

/** True when `text` has a character outside ASCII (its skeleton needs the full table). */
export function needsFullSkeleton(text: string): boolean {
  return nonAscii.test(text);
}

let loaded: Promise<SkeletonOf> | undefined;

/** The skeleton function over all of Unicode, loading the confusables table on first use. */
export function loadSkeleton(): Promise<SkeletonOf> {
  loaded ??= import('unhomoglyph').then((module) => {
    const map = (module as { default: (text: string) => string }).default;
    // TR39: skeleton(X) = NFD(map(NFD(X))).
    return (text: string) =>
      needsFullSkeleton(text) ? map(text.normalize('NFD')).normalize('NFD') : asciiSkeleton(text);
  });
  return loaded;
}
