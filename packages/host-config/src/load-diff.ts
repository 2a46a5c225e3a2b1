/**
 * The `diff` package, loaded at the first export plan (its unified diff is shown before anything is
 * written) rather than when this package is imported: `switchboard servers list` loads this package
 * and never diffs. `require` keeps the caller synchronous.
 */
import { createRequire } from 'node:module';
import type * as Diff from 'diff';

const require = createRequire(import.meta.url);
let diff: typeof Diff | undefined;

/** The `diff` package. */
export function loadDiff(): typeof Diff {
  diff ??= require('diff') as typeof Diff;
  return diff;
}
