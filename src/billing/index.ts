export {
  cachedCost,
  extractCost,
  fetchCost,
  pdfOcrCost,
  searchQueryCost,
  sequenceCost,
  summaryCost,
} from './costs.ts';
export { Meter } from './meter.ts';
export { microsToUsd, usdToMicros } from './money.ts';
export { PRICES_MICROS } from './prices.ts';
