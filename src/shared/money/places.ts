/** Decimal places of unit prices, amounts and quantities (spec 000 §9 "Decimal places"). */

export interface Places {
  price: number;
  amount: number;
  quantity: number;
}

export const DEFAULT_PLACES: Readonly<Places> = Object.freeze({ price: 5, amount: 2, quantity: 2 });

const CONFIG_KEYS: Record<keyof Places, string> = {
  price: 'UNIT_DECIMAL_PLACES',
  amount: 'AMT_DECIMAL_PLACES',
  quantity: 'NUMBER_DECIMAL_PLACES',
};

// A blank or odd config value must not break every bill, so it falls back to the default.
function placesOf(value: unknown, fallback: number): number {
  if (value === null || value === undefined || value === '' || typeof value === 'boolean') return fallback;
  const n = Number(value);
  return Number.isInteger(n) && n >= 0 && n <= 8 ? n : fallback;
}

/** The places from system config (UNIT/AMT/NUMBER_DECIMAL_PLACES); integers 0..8, else the default. */
export function placesFromConfig(config: Record<string, unknown>): Places {
  return {
    price: placesOf(config[CONFIG_KEYS.price], DEFAULT_PLACES.price),
    amount: placesOf(config[CONFIG_KEYS.amount], DEFAULT_PLACES.amount),
    quantity: placesOf(config[CONFIG_KEYS.quantity], DEFAULT_PLACES.quantity),
  };
}
