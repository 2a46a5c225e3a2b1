import { defineProject } from 'vitest/config';

// The unit tests of the suite's parts (the root `vitest run` takes these); the suite itself is
// vitest.packaging.config.ts.
export default defineProject({
  test: {
    name: 'packaging-parts',
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
  },
});
