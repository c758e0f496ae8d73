const MICROS_PER_USD = 1_000_000;

/** Converts integer micro-dollars to the USD number the API reports. */
export function microsToUsd(micros: number): number {
  return Math.round(micros) / MICROS_PER_USD;
}

export function usdToMicros(usd: number): number {
  return Math.round(usd * MICROS_PER_USD);
}
