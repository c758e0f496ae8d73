/** One thread of fit-workers.ts: fits a classifier on the pages each message marks. */
import { parentPort, workerData } from 'node:worker_threads';
import type { FitWorkerData } from './fit-workers.ts';
import { fitClassifier } from './train-lib.ts';

const { pages, options } = workerData as FitWorkerData;
parentPort!.on('message', (subset: boolean[]) => {
  parentPort!.postMessage(
    fitClassifier(
      pages.filter((_, i) => subset[i]),
      options,
    ),
  );
});
