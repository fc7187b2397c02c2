/** Request timeouts in ms: a general default and named overrides for known long calls (spec §9). */
export const timeouts = {
  default: 60_000,
  export: 36_000_000,
  profitLossExport: 900_000,
  couponSendBatch: 300_000,
  /** Freight-bill draft, submit, rematch and repeat-export. */
  freightBill: 1_800_000,
} as const;

export type TimeoutName = keyof typeof timeouts;

export function resolveTimeout(value: TimeoutName | number | undefined): number {
  if (typeof value === 'number') return value;
  return timeouts[value ?? 'default'];
}
