import { Meter, PRICES_MICROS, microsToUsd } from '../billing/index.ts';
import type { LedgerStore } from '../store/index.ts';

export function perMinuteMicros(headless: boolean): number {
  return headless ? PRICES_MICROS.sessionHeadlessMinute : PRICES_MICROS.sessionVisibleMinute;
}

export function costPerMinUsd(headless: boolean): number {
  return microsToUsd(perMinuteMicros(headless));
}

/** Seconds billed for an active period: every started second counts. */
export function billedSeconds(ms: number): number {
  return Math.ceil(Math.max(0, ms) / 1000);
}

/** Cost of an active period in micro-dollars: per started second, rounded up to the micro-dollar. */
export function periodMicros(ms: number, headless: boolean): number {
  return Math.ceil((billedSeconds(ms) * perMinuteMicros(headless)) / 60);
}

/** One ledger row per active period: units are the billed seconds, ref the session id. */
export async function chargePeriod(ledger: LedgerStore, userId: string, sessionId: string, ms: number, micros: number): Promise<void> {
  const meter = new Meter(userId, sessionId);
  meter.charge('session', billedSeconds(ms), micros);
  await meter.flush(ledger);
}
