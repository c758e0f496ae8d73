import { parentPort, workerData } from 'node:worker_threads';
import { convertHtml } from '../../src/content/index.ts';

/**
 * A bare conversion thread for bench/scrape's ceiling: no pool, no service, no I/O. Each round it
 * takes pages off a counter shared with the other threads until none are left, then says so.
 */
const { pages, urls, next } = workerData as { pages: string[]; urls: string[]; next: Int32Array };

parentPort!.on('message', () => {
  for (let i = Atomics.add(next, 0, 1); i < pages.length; i = Atomics.add(next, 0, 1))
    convertHtml({ html: pages[i]!, url: urls[i]!, format: 'markdown', onlyMainContent: true });
  parentPort!.postMessage('done');
});
