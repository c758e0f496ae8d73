export { PRICES_MICROS } from './prices.ts';
export { microsToUsd, usdToMicros } from './money.ts';
export { searchQueryCost, fetchCost, pdfOcrCost, sequenceCost, summaryCost, extractCost } from './costs.ts';
export { Meter } from './meter.ts';
