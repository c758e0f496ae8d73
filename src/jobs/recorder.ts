import type { Transaction } from 'kysely';
import type { Meter } from '../billing/index.ts';
import type { Tables } from '../store/index.ts';
import type { JobStore } from './job-store.ts';
import type { ItemRecord, RecordedBatch } from './record.ts';
import type { EnqueueItems, ItemKey, ItemOutcome } from './types.ts';

export interface RecorderHooks {
  /** Queues the items a result adds to its job. */
  enqueue: EnqueueItems;
  /** Marks ended items done in the queue, inside the transaction that records their results. */
  settle(trx: Transaction<Tables>, items: ItemKey[]): Promise<void>;
  /** A batch committed. */
  recorded(batch: RecordedBatch): void;
}

/**
 * How long the first result after a quiet spell waits for others to share its transaction. Its
 * runner's slot is already free, so the wait costs no throughput, only this much latency; a result
 * with no other item running beside it does not wait, as nothing could join it (a job's last item,
 * a one-item job).
 */
const LINGER_MS = 10;
/** Results written in one transaction at most. */
const MAX_BATCH = 64;

interface Entry {
  item: ItemKey;
  record?: ItemRecord;
  resolve(): void;
  reject(err: unknown): void;
}

/**
 * Group commit of item results: results that end while a transaction is writing others wait for
 * it and are then written together in the next one, so the statements a result costs are shared
 * by every result of its batch. Each caller learns when its own result committed (or failed to).
 */
export class ItemRecorder {
  readonly #store: JobStore;
  readonly #hooks: RecorderHooks;
  readonly #othersRunning: () => boolean;
  #pending: Entry[] = [];
  #timer?: NodeJS.Timeout;
  #flushing?: Promise<void>;

  /** `othersRunning`: whether operations are still running whose results could share a batch. */
  constructor(store: JobStore, hooks: RecorderHooks, othersRunning: () => boolean) {
    this.#store = store;
    this.#hooks = hooks;
    this.#othersRunning = othersRunning;
  }

  /** Writes the item's result with the charges in `meter`; resolves once committed. */
  record(item: ItemKey, outcome: ItemOutcome, meter: Meter): Promise<void> {
    return this.#add(item, { ...item, outcome, meter });
  }

  /** Marks an item that records nothing (its job was cancelled, say) done in the queue. */
  settle(item: ItemKey): Promise<void> {
    return this.#add(item);
  }

  #add(item: ItemKey, record?: ItemRecord): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#pending.push({ item, record, resolve, reject });
      if (this.#flushing) return;
      if (this.#pending.length >= MAX_BATCH || !this.#othersRunning()) void this.#flush();
      else this.#timer ??= setTimeout(() => void this.#flush(), LINGER_MS);
    });
  }

  /** Writes batches until nothing waits; what arrives during a write goes into the next one. */
  #flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#flushing ??= (async () => {
      while (this.#pending.length > 0) await this.#write(this.#pending.splice(0, MAX_BATCH));
      this.#flushing = undefined;
    })();
    return this.#flushing;
  }

  async #write(batch: Entry[]): Promise<void> {
    try {
      const records = batch.flatMap((e) => (e.record ? [e.record] : []));
      const written = await this.#store.recordMany(records, {
        enqueue: this.#hooks.enqueue,
        settle: (trx) =>
          this.#hooks.settle(
            trx,
            batch.map((e) => e.item),
          ),
      });
      this.#hooks.recorded(written);
      for (const e of batch) e.resolve();
    } catch (err) {
      for (const e of batch) e.reject(err);
    }
  }

  /** Writes what is waiting now (a stopping process). */
  drain(): Promise<void> {
    return this.#flush();
  }
}
