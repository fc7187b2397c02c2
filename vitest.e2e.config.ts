import { defineConfig } from 'vitest/config';
import LongFirstSequencer from './tests/support/long-first.ts';

// Browser suite: Playwright driving Debian's chromium against the real server and the
// production client build (dist/client). Two files at a time, each with its own server and
// browser: a file spends most of its time waiting on pages, so two share the 2 cores well
// (measured: 13 min one at a time, 9 min two at a time, the CPU two-thirds of one core busy).
export default defineConfig({
  root: '.',
  test: {
    include: ['tests/e2e/**/*.e2e.test.ts'],
    environment: 'node',
    pool: 'forks',
    // A worker keeps the modules it loaded (the server's, Playwright's) from one file to the next:
    // each file still starts its own server and browser, but no longer loads them again (~3 s each).
    isolate: false,
    fileParallelism: true,
    maxWorkers: 2,
    sequence: { sequencer: LongFirstSequencer },
    testTimeout: 180_000,
    hookTimeout: 240_000,
    globalSetup: ['tests/e2e/support/globalSetup.ts'],
    // A page on a busy 2-core machine may take more than vitest's default second to settle;
    // a poll still fails when its condition never holds.
    expect: { poll: { timeout: 10_000 } },
  },
});
