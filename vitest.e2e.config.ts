import { defineConfig } from 'vitest/config';

// Browser suite: Playwright driving Debian's chromium against the real server and the
// production client build (dist/client). One file at a time: each starts its own server.
export default defineConfig({
  root: '.',
  test: {
    include: ['tests/e2e/**/*.e2e.test.ts'],
    environment: 'node',
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 240_000,
    globalSetup: ['tests/e2e/support/globalSetup.ts'],
    // A page on a busy 2-core machine may take more than vitest's default second to settle;
    // a poll still fails when its condition never holds.
    expect: { poll: { timeout: 10_000 } },
  },
});
