import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
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
    const rows = await this.#db.selectFrom('usage_ledger').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
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
}
