import { defineConfig } from 'vitest/config';

// Unit and API suites (the browser suite has vitest.e2e.config.ts). Node only: no Vite root here.
export default defineConfig({
  root: '.',
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/api/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
