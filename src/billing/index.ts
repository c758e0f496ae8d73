export { PRICES_MICROS, type Operation, type PricedItem } from './prices.ts';
export { microsToUsd, usdToMicros, sumMicros } from './money.ts';
export { searchQueryCost, fetchCost, pdfOcrCost, sequenceCost, summaryCost } from './costs.ts';
export { Meter } from './meter.ts';
