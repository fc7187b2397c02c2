/**
 * Posting-property benchmark (figures only, never asserted on time): the property of
 * tests/property/documents.property.test.ts (tests/support/posting-model.ts) with 10,000 runs on
 * SQLite, one in-process server and one world; prints the time, the run count and what the runs did.
 *
 *   npx tsx tests/bench/documents-property.ts [runs]        (or npm run bench -- posting-property)
 */
import fc from 'fast-check';
import { startTestServer } from '../support/server.ts';
import { signedIn } from '../support/client.ts';
import { makeWorld } from '../support/bills.ts';
import { createHarness, formatStats, runArb, runSteps } from '../support/posting-model.ts';

const RUNS = Number(process.argv[2] ?? process.env.DOCUMENT_PROPERTY_RUNS ?? 10_000);

async function main() {
  const server = await startTestServer();
  let failed = false;
  try {
    const api = await signedIn(server.url);
    const harness = await createHarness(server.services, () => makeWorld(api, { goods: 3, depots: 2, customers: 2 }));
    const t0 = performance.now();
    // postingProperty, with a progress line every 1,000 runs (the checks grow with the ledgers).
    const property = fc.asyncProperty(runArb, async (steps) => {
      await runSteps(harness, steps);
      const { runs, ms } = harness.stats;
      if (runs % 1000 === 0) {
        console.log(`  ${runs.toLocaleString()} runs: ${((performance.now() - t0) / 1000).toFixed(1)} s (steps ${(ms.steps / 1000).toFixed(1)} s, checks ${(ms.checks / 1000).toFixed(1)} s, final flushes ${(ms.finalFlush / 1000).toFixed(1)} s)`);
      }
    });
    try {
      await fc.assert(property, { numRuns: RUNS });
    } catch (error) {
      failed = true;
      console.error(error instanceof Error ? error.message : error);
    }
    const ms = performance.now() - t0;
    const runs = harness.stats.runs;
    console.log(
      `posting property × ${RUNS.toLocaleString()} runs on SQLite: ${(ms / 1000).toFixed(1)} s ` +
        `(${(ms / Math.max(runs, 1)).toFixed(1)} ms per run, ${runs.toLocaleString()} runs executed${failed ? ', FAILED' : ', all passed'})`,
    );
    console.log(formatStats(harness.stats));
  } finally {
    await server.close();
  }
  if (failed) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
