import { once } from 'node:events';
import { Worker } from 'node:worker_threads';

export interface BareThreads {
  /** Converts every page once across the threads; resolves with the wall time in ms. */
  round(): Promise<number>;
  close(): Promise<void>;
}

/**
 * The ceiling for a batch on this machine: the same pages converted by `threads` bare worker
 * threads sharing one queue, with nothing else running (no server, no fetching, no pool). A batch
 * through the service cannot beat it; how near it comes is what the service costs.
 */
export function startBareThreads(pages: string[], urls: string[], threads: number): BareThreads {
  const next = new Int32Array(new SharedArrayBuffer(4));
  const workers = Array.from(
    { length: threads },
    () =>
      new Worker(new URL('./convert-thread.ts', import.meta.url), {
        workerData: { pages, urls, next },
      }),
  );
  return {
    async round() {
      Atomics.store(next, 0, 0);
      const t0 = performance.now();
      await Promise.all(
        workers.map((w) => {
          const done = once(w, 'message');
          w.postMessage('go');
          return done;
        }),
      );
      return performance.now() - t0;
    },
    async close() {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
