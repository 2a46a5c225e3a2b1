/** The run the global setup prepared, as a test file reads it. */
import { inject } from 'vitest';
import { type PackagingRun, readPackagingRun } from './packaging-run.js';

let cached: PackagingRun | undefined;

/** The run of this vitest invocation (read once per test file). */
export function currentRun(): PackagingRun {
  cached ??= readPackagingRun(inject('packagingRunFile'));
  return cached;
}
