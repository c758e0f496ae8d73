/**
 * Runs `work` over a queue that the work itself may grow (sitemap indexes add sitemaps, pages add
 * pages), at most `concurrency` at a time, until the queue is empty and nothing is running.
 */
export async function drainQueue<T>(
  queue: T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  const running = new Set<Promise<void>>();
  for (;;) {
    while (running.size < concurrency && queue.length > 0) {
      const p: Promise<void> = work(queue.shift()!).finally(() => running.delete(p));
      running.add(p);
    }
    if (running.size === 0) return;
    await Promise.race(running);
  }
}
