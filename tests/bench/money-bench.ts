/**
 * Line-amount benchmark (figures only, never asserted): computeLine over 10,000 varied lines
 * (both bases, discounts, coupons, returns, gifts, should-quantity lines), 20 timed runs after one
 * warm-up; prints the median and range per run and a sum check (Σ tax = Σ total − Σ amount).
 *
 *   npx tsx tests/bench/money-bench.ts        (or npm run bench -- money)
 */
import {
  DEFAULT_PLACES,
  Dec,
  computeLine,
  sumFields,
  type LineAmounts,
  type LineInput,
} from '../../src/shared/money/index.ts';

const LINES = 10_000;
const RUNS = 20;
const RATES = ['0', '1', '3', '6', '9', '13'];

// A fixed pseudo-random sequence, so every run and every machine prices the same bill.
let seed = 20240506;
const next = (n: number) => {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return seed % n;
};
const text = (units: number, places: number) => new Dec(units).div(10 ** places).toFixed(places);

const inputs: LineInput[] = Array.from({ length: LINES }, (_, i) => {
  const sign = i % 10 === 9 ? -1 : 1; // every tenth line a return
  const qty = text(sign * (1 + next(50_000)), 2);
  const unit = text(1 + next(10_000_000), 4);
  const exclusive = i % 4 === 3;
  return {
    qty,
    basis: exclusive ? 'exclusive' : 'inclusive',
    [exclusive ? 'price' : 'taxPrice']: unit,
    taxRate: RATES[next(RATES.length)],
    discountRate: i % 3 === 0 ? text(5000 + next(5000), 2) : undefined,
    couponAmt: i % 7 === 0 ? text(sign * next(500), 2) : undefined,
    isGift: i % 50 === 49,
    shouldQty: i % 11 === 0 ? qty : undefined,
    shouldAmt: i % 11 === 0 ? text(sign * next(100_000_000), 2) : undefined,
  };
});

function run(): LineAmounts[] {
  return inputs.map((input) => computeLine(input, DEFAULT_PLACES));
}

const places = { amount: 2, taxAmt: 2, totalAmt: 2, finalAmt: 2 };
const head = sumFields(run() as unknown as Record<string, unknown>[], Object.keys(places), places); // warm-up
const times: number[] = [];
for (let r = 0; r < RUNS; r += 1) {
  const t0 = performance.now();
  run();
  times.push(performance.now() - t0);
}
times.sort((a, b) => a - b);
const median = (times[RUNS / 2 - 1] + times[RUNS / 2]) / 2;
const balanced = new Dec(head.taxAmt).eq(new Dec(head.totalAmt).minus(head.amount));

console.log(
  `computeLine × ${LINES.toLocaleString()} lines: median ${median.toFixed(1)} ms per run ` +
    `(${times[0].toFixed(1)}–${times[RUNS - 1].toFixed(1)} ms, ${RUNS} runs), ` +
    `${((median * 1000) / LINES).toFixed(2)} µs per line`,
);
console.log(
  `sum check: Σ amount ${head.amount}, Σ tax ${head.taxAmt}, Σ total ${head.totalAmt}, Σ final ${head.finalAmt}; ` +
    `Σ tax = Σ total − Σ amount: ${balanced ? 'yes' : 'NO'}`,
);
