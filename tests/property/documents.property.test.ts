/**
 * Acceptance 11 of the document engine: a property test of posting. Random runs of 1–8 steps
 * (purchase-in, sales-out, sales return of a sale of the run, flush of a bill of the run) against
 * one world, each action accepted or refused as a small stock model predicts (a refusal writes
 * nothing); after each run every balance equals Σ of its ledger rows, every bill has at most one
 * post and one reverse entry, no ledger row ever changes, and flushing every bill of the run in
 * reverse posting order brings every balance back to exactly where the run found it (0.00).
 * The property itself is in tests/support/posting-model.ts (shared with the posting-property bench).
 *
 *   DOCUMENT_PROPERTY_RUNS   runs on SQLite (default 1000, in chunks of 250 on a fresh server each);
 *                            PostgreSQL runs min(that, 200)
 *   DOCUMENT_PROPERTY_STRICT 1: a final flush refused in reverse posting order fails the run
 */
import fc from 'fast-check';
import { afterAll, describe, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { signedIn } from '../support/client.ts';
import { makeWorld } from '../support/bills.ts';
import { createHarness, formatStats, postingProperty, type PostingHarness } from '../support/posting-model.ts';

const RUNS = Number(process.env.DOCUMENT_PROPERTY_RUNS ?? 1000);
const CHUNK = 250;

describe.each(databases())('posting property ($name)', ({ name, databaseUrl }) => {
  const numRuns = name === 'postgres' ? Math.min(RUNS, 200) : RUNS;
  let server: TestServer | undefined;
  let harness: PostingHarness;

  /** A fresh server, world and harness (each chunk of runs gets its own). */
  async function setUp(): Promise<void> {
    await server?.close();
    server = await startTestServer({ databaseUrl });
    const api = await signedIn(server.url);
    harness = await createHarness(server.services, () => makeWorld(api, { goods: 3, depots: 2, customers: 2 }), {
      strictReverse: process.env.DOCUMENT_PROPERTY_STRICT === '1',
    });
  }
  afterAll(async () => server?.close());

  test(
    `${numRuns} random runs keep balances = Σ ledgers, one post/reverse per bill and line, posted rows unchanged, and flush back to the start`,
    async () => {
      // In chunks of CHUNK runs, each on a fresh server: the runs' bills pile up (a flush keeps
      // them) and posting slows as the tables grow, so one world for all 1,000 runs made the last
      // runs much slower than the first.
      for (let done = 0; done < numRuns; done += CHUNK) {
        await setUp();
        try {
          await fc.assert(postingProperty(harness), { numRuns: Math.min(CHUNK, numRuns - done) });
        } finally {
          console.log(`posting property (${name}, runs ${done + 1}–${Math.min(done + CHUNK, numRuns)}):\n${formatStats(harness.stats)}`);
        }
      }
    },
    Math.max(120_000, numRuns * 1_000),
  );
});
