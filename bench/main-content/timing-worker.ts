/**
 * One extractor timed on a thread of its own, with a heap of its own, as the service converts
 * pages (`src/content/content-threads.ts`): timed beside another extractor in one heap, each is
 * charged for collecting the other's garbage (see "Speed measured as the service converts" in
 * docs/main-content.md). Loads the same pages as the bench, warms up with an untimed pass over
 * them all (a service converts page after page: its code is compiled and its heap sized), then
 * answers each message with the milliseconds of one pass over every page.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadArticleExtraction, loadWcxb } from './data.ts';
import { EXTRACTORS, type ExtractorName } from './extractors.ts';

const { set, limit, extractor } = workerData as {
  set: 'article' | 'wcxb';
  limit: number | undefined;
  extractor: ExtractorName;
};
const pages = set === 'article' ? loadArticleExtraction(limit) : loadWcxb(limit);
const run = EXTRACTORS[extractor];
for (const page of pages) run(page);

parentPort!.on('message', () => {
  let ms = 0;
  for (const page of pages) {
    const t0 = performance.now();
    run(page);
    ms += performance.now() - t0;
  }
  parentPort!.postMessage(ms);
});
parentPort!.postMessage('ready');
