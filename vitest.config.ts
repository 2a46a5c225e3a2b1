import { defineConfig } from 'vitest/config';

// One run over every package: each package has its own `defineProject` config.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*', 'tests/*'],
  },
});
