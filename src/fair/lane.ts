import { FairQueue } from './queue.ts';

export interface FairLaneOptions {
  /** Places in the lane, across all keys. */
  capacity: number;
  /** Places one key may hold at once; the rest stay for other keys. */
  perKey: number;
}

export interface LaneWait {
  signal?: AbortSignal;
  /** Longest wait for a place; beyond it the wait rejects with `busy()`. Unbounded without it. */
  waitMs?: number;
  busy?: () => Error;
}

/** Hands a place back; calling it again does nothing. */
export type Release = () => void;

interface Waiter {
  grant: () => void;
}

/**
 * A bounded number of places shared between keys (users): at most `perKey` held by one key, and
 * freed places given to waiting keys in turn (`FairQueue`), so one key's backlog delays another
 * key's first item by at most about one item's time. Hand-written because p-limit and p-queue
 * bound tasks on one line, with no key, no cap per key and no deadline on the wait itself.
 */
export class FairLane {
  readonly #capacity: number;
  readonly #perKey: number;
  readonly #held = new Map<string, number>();
  readonly #waiting = new FairQueue<Waiter>();
  #used = 0;

  constructor(opts: FairLaneOptions) {
    this.#capacity = opts.capacity;
    this.#perKey = Math.min(opts.perKey, opts.capacity);
  }

  get used(): number {
    return this.#used;
  }

  get waiting(): number {
    return this.#waiting.size;
  }

  /** Places `key` holds now. */
  heldBy(key: string): number {
    return this.#held.get(key) ?? 0;
  }

  /** Keys holding all the places one key may hold. */
  saturated(): string[] {
    return [...this.#held].filter(([, n]) => n >= this.#perKey).map(([key]) => key);
  }

  /** Whether `key` may take a place now without waiting. */
  free(key: string): boolean {
    return this.#used < this.#capacity && this.heldBy(key) < this.#perKey;
  }

  /** A place for `key` now, or undefined when none is free to it. */
  take(key: string): Release | undefined {
    return this.free(key) ? this.#take(key) : undefined;
  }

  /** A place for `key`, at once when one is free to it, else in its turn. */
  acquire(key: string, wait: LaneWait = {}): Promise<Release> {
    const { signal } = wait;
    if (signal?.aborted) return Promise.reject(signal.reason);
    // Every free place has gone to the waiters it could go to, so a free one is this key's to take.
    const now = this.take(key);
    if (now) return Promise.resolve(now);
    return new Promise<Release>((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          cleanup();
          resolve(this.#take(key));
        },
      };
      const leave = (err: unknown) => {
        this.#waiting.remove(key, waiter);
        cleanup();
        reject(err);
      };
      const timer =
        wait.waitMs === undefined
          ? undefined
          : setTimeout(
              () => leave(wait.busy?.() ?? new Error('no place in the lane in time')),
              wait.waitMs,
            );
      const onAbort = () => leave(signal!.reason);
      const cleanup = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(key, waiter);
      this.#grant();
    });
  }

  /** `work` run holding a place of `key`'s, handed back however it ends. */
  async run<T>(key: string, work: () => Promise<T>, wait: LaneWait = {}): Promise<T> {
    const release = await this.acquire(key, wait);
    try {
      return await work();
    } finally {
      release();
    }
  }

  #take(key: string): Release {
    this.#used++;
    this.#held.set(key, this.heldBy(key) + 1);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.#used--;
      const left = this.heldBy(key) - 1;
      if (left > 0) this.#held.set(key, left);
      else this.#held.delete(key);
      this.#grant();
    };
  }

  /** Gives free places to waiting keys in turn, skipping keys at their cap. */
  #grant(): void {
    while (this.#used < this.#capacity) {
      const next = this.#waiting.shift((key) => this.heldBy(key) < this.#perKey);
      if (!next) return;
      next.item.grant();
    }
  }
}
