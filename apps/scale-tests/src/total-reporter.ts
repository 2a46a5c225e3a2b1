/**
 * A vitest reporter that ends the run with `Total: N passed, N failed`, the line CI and
 * `scripts/quickstart.mjs` print for every suite, so a scale run reads like the others.
 */
import type { Reporter, TestModule } from 'vitest/node';

/** Counts passed and failed tests over the run; a module that failed to load counts as one failure. */
export default class TotalReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    for (const testModule of testModules) {
      if (testModule.state() === 'failed' && [...testModule.children.allTests()].length === 0) failed++;
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
      }
    }
    console.log(`\nTotal: ${passed} passed, ${failed} failed`);
  }
}
