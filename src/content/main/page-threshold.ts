/**
 * The threshold a page's blocks are kept at, read from how the classifier scored the page as a
 * whole. One threshold for every page reads a page where the classifier is sure of its content
 * and one where it is unsure everywhere (a shop's description, a listing's cards scored around
 * 0.3) alike; held out, the best of six thresholds per page reads WCXB 0.905 where the model's
 * one reads 0.876. A small forest per candidate threshold, fitted by the training script on
 * held-out scores, says whether that candidate reads a page better than the model's threshold.
 */
import { type Forest, forestProbability } from './forest.ts';

export interface PageThreshold {
  /** Thresholds a page may be read at in place of the model's. */
  candidates: number[];
  /** Per candidate, the probability that it reads a page better than the model's threshold. */
  forests: Forest[];
}

/** No candidates: every page is read at the model's threshold (a model fitted before its page forests are). */
export const MODEL_THRESHOLD_ONLY: PageThreshold = { candidates: [], forests: [] };

/** What the page forests read of a scored page. */
export interface ScoredPage {
  words: number[];
  blocks: readonly { text: string; linkChars: number }[];
  declaresArticle: boolean;
}

/** Score bands the page's words are counted in: tenths of the block score. */
const BANDS = 10;

/**
 * How the page scored, in numbers: the word-weighted mean score, the share of the page's words
 * in each tenth of the score and at or over it (a block counts one word more than it has, so
 * that blocks without words count a little), the page's size, what the model's threshold keeps
 * (words, share, link share), whether the page declares an article, its number of blocks and the
 * threshold itself.
 */
export function pageFeatures(page: ScoredPage, scores: number[], threshold: number): number[] {
  let total = 0;
  let mean = 0;
  let kept = 0;
  let keptChars = 0;
  let keptLinks = 0;
  const bands = new Array<number>(BANDS).fill(0);
  scores.forEach((s, i) => {
    const weight = page.words[i]! + 1;
    total += weight;
    mean += weight * s;
    bands[Math.min(BANDS - 1, Math.floor(s * BANDS))]! += weight;
    if (s < threshold) return;
    kept += page.words[i]!;
    keptChars += page.blocks[i]!.text.length;
    keptLinks += page.blocks[i]!.linkChars;
  });
  const share = bands.map((b) => b / total);
  const atOrOver = share.map((_, k) => share.slice(k).reduce((a, b) => a + b, 0)).slice(1);
  return [
    mean / total,
    ...share,
    ...atOrOver,
    Math.log1p(total),
    Math.log1p(kept),
    kept / total,
    keptLinks / Math.max(1, keptChars),
    page.declaresArticle ? 1 : 0,
    Math.log1p(scores.length),
    threshold,
  ];
}

/**
 * The candidate its forest is surest reads the page better than `threshold`, when one says so
 * (a probability over one half); else `threshold`.
 */
export function chooseThreshold(
  choice: PageThreshold,
  page: ScoredPage,
  scores: number[],
  threshold: number,
): number {
  if (!choice.candidates.length || !scores.length) return threshold;
  const x = pageFeatures(page, scores, threshold);
  let best = threshold;
  let surest = 0.5;
  choice.forests.forEach((forest, k) => {
    const p = forestProbability(forest, x);
    if (p > surest) {
      surest = p;
      best = choice.candidates[k]!;
    }
  });
  return best;
}
