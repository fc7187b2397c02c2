import { defineConfig } from 'vitest/config';
import LongFirstSequencer from './tests/support/long-first.ts';

// Each API file starts its own server (own SQLite folder, own PostgreSQL database), so files share
// nothing and run two at a time (the machines have 2 cores). The kill -9 durability run goes alone
// afterwards: a busy neighbour would only blur what it measures. A worker keeps the modules it
// loaded from one file to the next (isolate: false): files share no state but the code, and loading
// the server's modules again for each of ~100 files cost about two minutes of CPU.
const ALONE = ['tests/api/durability.test.ts'];
const common = { environment: 'node', pool: 'forks', isolate: false, testTimeout: 60_000, hookTimeout: 120_000 } as const;

export default defineConfig({
  test: {
    sequence: { sequencer: LongFirstSequencer },
    projects: [
      {
        test: {
          ...common,
          name: 'shared',
          include: ['tests/unit/**/*.test.ts', 'tests/api/**/*.test.ts', 'tests/property/**/*.test.ts'],
          exclude: ALONE,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: { ...common, name: 'alone', include: ALONE, fileParallelism: false, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
