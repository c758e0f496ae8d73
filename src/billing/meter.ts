import type { LedgerEntry, LedgerStore } from '../store/index.ts';
import type { Operation } from './prices.ts';

/**
 * Collects the charges of one request or job item and writes them to the usage ledger in one go.
 * Zero-cost charges (failures) are not recorded: the ledger lists what a user pays for.
 */
export class Meter {
  readonly #entries: LedgerEntry[] = [];
  readonly #userId: string;
  readonly #ref: string | null;

  constructor(userId: string, ref: string | null = null) {
    this.#userId = userId;
    this.#ref = ref;
  }

  charge(operation: Operation, units: number, costMicros: number): number {
    if (costMicros > 0)
      this.#entries.push({ userId: this.#userId, operation, units, costMicros, ref: this.#ref });
    return costMicros;
  }

  get totalMicros(): number {
    return this.#entries.reduce((sum, e) => sum + e.costMicros, 0);
  }

  /** The charges collected so far, for a caller that writes several meters' charges in one statement. */
  get entries(): readonly LedgerEntry[] {
    return this.#entries;
  }

  /** Writes the charges collected so far and returns them (for the caller to count once committed). */
  async flush(ledger: LedgerStore): Promise<LedgerEntry[]> {
    const entries = this.#entries.splice(0);
    await ledger.record(entries);
    return entries;
  }
}
