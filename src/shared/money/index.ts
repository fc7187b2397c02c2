/** Exact line amounts, sums, allocation and display, shared by client and server. */
export { Dec, fixed, round, toDec, type Decimal } from './decimal.ts';
export { DEFAULT_PLACES, placesFromConfig, type Places } from './places.ts';
export { MoneyInputError, computeLine, computeLineValue, type LineAmounts, type LineInput } from './line.ts';
export { NON_SUMMABLE, sumFields, summaryRow } from './sum.ts';
export { allocate, allocateFee, giftUnitCost, type FeeLine } from './allocate.ts';
export { formatAmount, group } from './format.ts';
export { compareLine, type LineMismatch } from './compare.ts';
