import { BrowserBusyError } from './errors.ts';

/**
 * Counting semaphore whose waiters give up after a deadline. Hand-written because p-limit and
 * p-queue bound how long a task runs, not how long it may wait for its turn, and the wait is what
 * turns into a 429.
 */
export class Slots {
  readonly #max: number;
  readonly #waitMs: number;
  #used = 0;
  readonly #waiters: Array<{ grant: () => void }> = [];

  constructor(max: number, waitMs: number) {
    this.#max = max;
    this.#waitMs = waitMs;
  }

  get used(): number {
    return this.#used;
  }

  get waiting(): number {
    return this.#waiters.length;
  }

  acquire(signal?: AbortSignal): Promise<void> {
    if (this.#used < this.#max) {
      this.#used++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter = {
        grant: () => {
          cleanup();
          resolve();
        },
      };
      const drop = () => {
        const i = this.#waiters.indexOf(waiter);
        if (i >= 0) this.#waiters.splice(i, 1);
        cleanup();
      };
      const timer = setTimeout(() => {
        drop();
        reject(new BrowserBusyError(this.#waitMs, Math.max(1, Math.ceil(this.#waitMs / 1000))));
      }, this.#waitMs);
      const onAbort = () => {
        drop();
        reject(signal!.reason);
      };
      const cleanup = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiters.push(waiter);
    });
  }

  release(): void {
    const next = this.#waiters.shift();
    if (next) next.grant();
    else this.#used--;
  }
}
