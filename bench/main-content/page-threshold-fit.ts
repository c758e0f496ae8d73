/**
 * Fits the page forests (src/content/page-threshold.ts): for each candidate threshold, a small
 * forest of boosted trees that reads how a page scored and says whether the candidate reads it
 * better than the model's threshold, learnt from pages weighted by how much better or worse
 * (better by the run's objective, page F-beta at `beta`: FitOptions in train-lib.ts).
 * The scores it learns from must be held out (each page scored by a classifier fitted without
 * it): on its own training pages the classifier is surer than on a new page, and forests learnt
 * there would not choose for new pages.
 */
import { keptAt } from '../../src/content/main/main-content.ts';
import { type PageThreshold, pageFeatures } from '../../src/content/main/page-threshold.ts';
import type { ForestOptions } from './forest-fit.ts';
import { fitForest } from './forest-fit.ts';
import { readingFBeta } from './route-cases.ts';
import type { PageBlocks } from './train-lib.ts';

/** A page's block scores by a classifier that never saw it, and that classifier's threshold. */
export interface HeldOutScores {
  scores: number[];
  threshold: number;
}

/** Each side of the model's threshold, far enough apart to read a page otherwise. */
const CANDIDATES = [0.2, 0.3, 0.5, 0.6];

/**
 * Small trees: one row a page, some 1,300 of them. A page's weight is its F-beta gained or lost in
 * hundredths, so a leaf needs two hundredths of it (a few pages) behind it.
 */
const PAGE_FOREST: ForestOptions = {
  trees: 50,
  depth: 3,
  learningRate: 0.1,
  lambda: 1,
  minLeafHessian: 2,
  bins: 32,
};

export function fitPageThreshold(
  pages: PageBlocks[],
  scored: HeldOutScores[],
  beta: number,
): PageThreshold {
  const scoreAt = (k: number, threshold: number) =>
    readingFBeta(pages[k]!, keptAt(pages[k]!, scored[k]!.scores, threshold), beta);
  const base = pages.map((_, k) => scoreAt(k, scored[k]!.threshold));
  const features = pages.map((p, k) => pageFeatures(p, scored[k]!.scores, scored[k]!.threshold));
  const forests = CANDIDATES.map((candidate) =>
    fitForest(
      pages
        .map((_, k) => {
          const gain = scoreAt(k, candidate) - base[k]!;
          return { f: features[k]!, y: gain > 0 ? 1 : 0, w: Math.abs(gain) * 100 };
        })
        .filter((r) => r.w > 0),
      PAGE_FOREST,
    ),
  );
  return { candidates: CANDIDATES, forests };
}
