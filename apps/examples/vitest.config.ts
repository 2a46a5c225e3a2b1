import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'examples',
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
