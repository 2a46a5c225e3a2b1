import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'examples',
    include: ['test/**/*.test.ts'],
    testTimeout: 240_000,
    hookTimeout: 60_000,
  },
});
