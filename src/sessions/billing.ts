import { Meter, microsToUsd, PRICES_MICROS } from '../billing/index.ts';
import { countCharges } from '../metrics/index.ts';
import type { LedgerStore, SessionStore } from '../store/index.ts';

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
export async function chargePeriod(
  ledger: LedgerStore,
  userId: string,
  sessionId: string,
  ms: number,
  micros: number,
): Promise<void> {
  const meter = new Meter(userId, sessionId);
  meter.charge('session', billedSeconds(ms), micros);
  countCharges(await meter.flush(ledger));
}

/**
 * Closes the sessions a previous life of this instance left active: the process died with them,
 * so each is closed with reason `error` and billed up to its last recorded activity.
 */
export async function closeOrphans(
  store: SessionStore,
  ledger: LedgerStore,
  instanceUrl: string,
): Promise<void> {
  for (const row of await store.activeOn(instanceUrl)) {
    const ms = row.last_activity_at - row.started_at;
    const micros = periodMicros(ms, row.headless === 1);
    const closed = await store.closeIfActive(row.id, {
      close_reason: 'error',
      closed_at: row.last_activity_at,
      token_hash: null,
      billed_micros: row.billed_micros + micros,
    });
    if (closed) await chargePeriod(ledger, row.user_id, row.id, ms, micros);
  }
}
