import { defineConfig } from 'vitest/config';

// The scale tests' own config: `*.scale.ts` files match neither this package's nor the root's default
// `*.test.ts` pattern, so `vitest run` at the root never starts a cluster; `pnpm test:scale` does.
export default defineConfig({
  test: {
    name: 'scale',
    include: ['test/**/*.scale.ts'],
    // One cluster at a time: each scenario loads the machine on its own.
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 120_000,
    reporters: ['default', './src/total-reporter.ts'],
  },
});
