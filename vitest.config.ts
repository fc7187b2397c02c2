import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/api/**/*.test.ts', 'tests/property/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    // Each API file starts its own server (own SQLite folder, own PostgreSQL database); running the
    // files one after another keeps the kill -9 durability run and the timing-free suites calm.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
