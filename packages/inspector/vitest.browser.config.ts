import { defineProject } from 'vitest/config';

// The browser tests' own config: `*.browser.ts` files match neither this package's nor the root's
// `*.test.ts` pattern, so the main suite (Node 20 and Node 24) never starts Chromium; `pnpm
// test:browser` (and `npm test` once, on Node 20) does.
export default defineProject({
  test: {
    name: 'browser',
    include: ['test-browser/**/*.browser.ts'],
    // One Chromium and one `switchboard ui` at a time: the machines have two cores.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 90_000,
  },
});
