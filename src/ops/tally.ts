import { microsToUsd, usdToMicros } from '../billing/index.ts';

/** The counts and total cost of a batch of outcomes, each succeeded or not and charged on its own. */
export function tally(results: ReadonlyArray<{ success: boolean; cost: number }>): {
  total: number;
  successful: number;
  failed: number;
  cost: number;
} {
  const successful = results.filter((r) => r.success).length;
  const micros = results.reduce((sum, r) => sum + usdToMicros(r.cost), 0);
  return {
    total: results.length,
    successful,
    failed: results.length - successful,
    cost: microsToUsd(micros),
  };
}
