/**
 * Fits block classifiers on worker threads, one a core. A training run fits sixteen classifiers
 * that do not depend on one another, each for minutes on one thread; on two cores the run took 36
 * minutes where one thread took 61. Each worker is sent the pages once, only what fitting reads of them (their
 * HTML, truth and text stay here), then fits the subsets it is given. Fitting is deterministic
 * and a structured clone keeps every number exactly, so the models are the ones one thread fits.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { BlockModel } from '../../src/content/main/block-model.ts';
import type { FitOptions, FitPage } from './train-lib.ts';

/** What the worker is given at start. */
export interface FitWorkerData {
  pages: FitPage[];
  options: FitOptions;
}

/** Fits one classifier on the pages each subset marks; the models in the subsets' order. */
export async function fitClassifiers(
  pages: readonly FitPage[],
  subsets: readonly boolean[][],
  options: FitOptions,
): Promise<BlockModel[]> {
  const workerData: FitWorkerData = {
    pages: pages.map(({ features, tokens, words, groups, labels, unreachable }) => ({
      features,
      tokens,
      words,
      groups,
      labels,
      unreachable,
    })),
    options,
  };
  const models: BlockModel[] = new Array(subsets.length);
  let next = 0;
  const run = async () => {
    const worker = new Worker(new URL('./fit-worker.ts', import.meta.url), { workerData });
    try {
      for (let k = next++; k < subsets.length; k = next++) {
        models[k] = await new Promise<BlockModel>((resolve, reject) => {
          worker.once('message', resolve);
          worker.once('error', reject);
          worker.postMessage(subsets[k]);
        });
        worker.removeAllListeners('error');
      }
    } finally {
      await worker.terminate();
    }
  };
  await Promise.all(Array.from({ length: Math.min(availableParallelism(), subsets.length) }, run));
  return models;
}
