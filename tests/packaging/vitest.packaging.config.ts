import { defineConfig } from 'vitest/config';

// The packaging suite's own config (`pnpm test:packaging`, run by scripts/quickstart.mjs): its
// `*.packaging.ts` files match neither this package's `vitest.config.ts` nor the root's projects,
// so `vitest run` at the root runs only the unit tests of the suite's parts. The global setup packs,
// publishes to a local registry and installs, once, before any file runs.
export default defineConfig({
  test: {
    name: 'packaging',
    include: ['test/**/*.packaging.ts'],
    globalSetup: ['./src/global-setup.ts'],
    testTimeout: 300_000,
    hookTimeout: 600_000,
    // Each file waits on child processes (Node, npm, tsc); a few side by side.
    maxWorkers: 3,
  },
});
