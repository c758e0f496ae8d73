import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { usersRows } from './owned.ts';
import type { Tables } from './schema.ts';

export interface LedgerEntry {
  userId: string;
  operation: string;
  units: number;
  costMicros: number;
  ref?: string | null;
}

export interface LedgerRow extends Required<LedgerEntry> {
  id: string;
  createdAt: number;
}

/** One user's charges of one UTC day and operation, added up. */
export interface UsageTotal {
  /** Days since 1970-01-01 (UTC). */
  day: number;
  operation: string;
  units: number;
  costMicros: number;
  /** Ledger rows added up. */
  charges: number;
}

/** One UTC day in milliseconds: usage is added up by these. */
export const DAY_MS = 86_400_000;

export class LedgerStore {
  readonly #db: Kysely<Tables>;

  constructor(db: Kysely<Tables>) {
    this.#db = db;
  }

  async record(entries: LedgerEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const now = Date.now();
    await this.#db
      .insertInto('usage_ledger')
      .values(
        entries.map((e) => ({
          id: randomUUID(),
          user_id: e.userId,
          operation: e.operation,
          units: e.units,
          cost_micros: e.costMicros,
          ref: e.ref ?? null,
          created_at: now,
        })),
      )
      .execute();
  }

  async forUser(userId: string): Promise<LedgerRow[]> {
    const rows = await usersRows(this.#db, 'usage_ledger', userId).orderBy('created_at').execute();
    return rows.map((r) => ({
      id: r.id,
      userId: r.user_id,
      operation: r.operation,
      units: r.units,
      costMicros: Number(r.cost_micros),
      ref: r.ref,
      createdAt: r.created_at,
    }));
  }

  /** A user's charges in [fromMs, toMs), by UTC day and operation, oldest day first. */
  async usageByDay(userId: string, fromMs: number, toMs: number): Promise<UsageTotal[]> {
    // Integer division on integer columns floors on both SQLite and Postgres.
    const day = sql<number | string>`created_at / ${sql.lit(DAY_MS)}`;
    const rows = await this.#db
      .selectFrom('usage_ledger')
      .select((eb) => [
        day.as('day'),
        'operation',
        eb.fn.sum<number | string>('units').as('units'),
        eb.fn.sum<number | string>('cost_micros').as('cost_micros'),
        eb.fn.countAll<number | string>().as('charges'),
      ])
      .where('user_id', '=', userId)
      .where('created_at', '>=', fromMs)
      .where('created_at', '<', toMs)
      .groupBy([day, 'operation'])
      .orderBy(day)
      .orderBy('operation')
      .execute();
    // Postgres hands sums and counts of bigints back as strings.
    return rows.map((r) => ({
      day: Number(r.day),
      operation: r.operation,
      units: Number(r.units),
      costMicros: Number(r.cost_micros),
      charges: Number(r.charges),
    }));
  }
}
