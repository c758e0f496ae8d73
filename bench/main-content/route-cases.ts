/**
 * What the route policy is fitted on: for each page and each classifier, the numbers the router
 * reads (what the classifier kept, how long Readability's pick is, how much the two agree) and
 * the F1 of each reading it could return. Fitting a policy from these takes milliseconds, so
 * `train.ts --route-only` refits the policy from a saved file without refitting the classifier.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseHtml } from '../../src/content/dom/parse.ts';
import { wordCount } from '../../src/content/dom/words.ts';
import type { BlockModel } from '../../src/content/main/block-model.ts';
import { keptText, pickBlocks, readabilityArticle } from '../../src/content/main/main-content.ts';
import { agreement, type KeptSummary } from '../../src/content/main/route.ts';
import { missingFacts } from '../../src/content/main/structured-data.ts';
import type { DataSet } from './data.ts';
import { bagOfWordsScore, f1Of, fBetaOf, type PrecisionRecall, shingleScore } from './metrics.ts';
import type { PageBlocks } from './train-lib.ts';

/** One page read by one classifier. */
export interface RouteCase {
  type: string;
  set: DataSet;
  declaresArticle: boolean;
  kept: KeptSummary;
  /** Words of all the page's blocks. */
  pageWords: number;
  readabilityWords: number;
  /** Share of the classifier's kept words that Readability's pick holds too. */
  agreement: number;
  /** Score of the classifier's text and of Readability's under the page's data set's metric, each with the product description the converter adds. */
  classifier: number;
  readability: number;
  /** The same without the product description, as main returned them. */
  classifierPlain: number;
  readabilityPlain: number;
  /**
   * On article-extraction, the shingle precision and recall of each reading, which its F1 of
   * averages is made of, and of the classifier's reading without the title heading: the set's
   * truth is the articleBody, which leaves the headline out, and the published figures it is
   * compared with score extractors that return the body alone.
   */
  shingles?: {
    classifier: PrecisionRecall;
    readability: PrecisionRecall;
    classifierBody?: PrecisionRecall;
  };
  /** On WCXB, the word precision and recall of each reading, which its F1 is made of. */
  words?: { classifier: PrecisionRecall; readability: PrecisionRecall };
}

export function readabilityText(p: PageBlocks): string {
  p.readability ??= readabilityArticle(parseHtml(p.page.html))?.textContent ?? '';
  return p.readability;
}

export const classifierText = (p: PageBlocks, keep: boolean[]) =>
  keptText(
    p.blocks,
    keep.map((k, i) => k || i === p.title),
  );

/** The converter adds a product's JSON-LD description and specs to whichever reading lacks them. */
export function withDescription(p: PageBlocks, text: string): string {
  const { description, specs } = missingFacts(text, p.productFacts);
  return [text, description, ...(specs ?? [])].filter(Boolean).join('\n');
}

/**
 * One reading scored by its page's set's metric with the precision and recall it is made of: word
 * F1 on WCXB; on article-extraction the shingles, which that set's F1 of averages is made of.
 */
function scored(
  p: PageBlocks,
  text: string,
): { f1: number; shingles?: PrecisionRecall; words?: PrecisionRecall } {
  const { truth, set } = p.page;
  if (set === 'wcxb') {
    const words = bagOfWordsScore(truth, text);
    return { f1: f1Of(words), words };
  }
  const shingles = shingleScore(truth, text);
  return { f1: f1Of(shingles), shingles };
}

/** The page's F-beta when the converter returns the blocks `keep` marks (and the title heading). */
export function readingFBeta(p: PageBlocks, keep: boolean[], beta: number): number {
  const { words, shingles } = scored(p, withDescription(p, classifierText(p, keep)));
  // Every set is scored by words (WCXB) or shingles (article-extraction).
  return fBetaOf((words ?? shingles)!, beta);
}

/**
 * The classifier's reading of the blocks `keep` marks, scored as the converter returns it, without
 * the product description (`plain`) and, on article-extraction, without its title heading (`body`).
 */
function classifierScores(
  p: PageBlocks,
  keep: boolean[],
): {
  f1: number;
  plain: number;
  shingles?: PrecisionRecall;
  words?: PrecisionRecall;
  body?: PrecisionRecall;
} {
  const text = classifierText(p, keep);
  const scores = { ...scored(p, withDescription(p, text)), plain: scored(p, text).f1 };
  if (!scores.shingles) return scores;
  const body = keptText(
    p.blocks,
    keep.map((k, i) => k && i !== p.title),
  );
  return { ...scores, body: shingleScore(p.page.truth, withDescription(p, body)) };
}

/**
 * A faultless classifier's reading: every block that is at least half content (its label) kept,
 * scored as the classifier's reading is. How far the classifier is from it is what better judging
 * of these blocks can still win; past it, only other blocks (or another definition of content)
 * read better.
 */
export function ceilingScores(p: PageBlocks): ReturnType<typeof classifierScores> {
  return classifierScores(
    p,
    p.labels.map((label) => label >= 0.5),
  );
}

export function routeCase(model: BlockModel, p: PageBlocks): RouteCase {
  const { keep, kept } = pickBlocks(model, p);
  const rd = readabilityText(p);
  const classifier = classifierScores(p, keep);
  const readability: ReturnType<typeof scored> = rd ? scored(p, withDescription(p, rd)) : { f1: 0 };
  return {
    type: p.page.type,
    set: p.page.set,
    declaresArticle: p.declaresArticle,
    kept,
    pageWords: p.words.reduce((a, w) => a + w, 0),
    readabilityWords: wordCount(rd),
    agreement: agreement(keptText(p.blocks, keep), rd),
    classifier: classifier.f1,
    readability: readability.f1,
    classifierPlain: classifier.plain,
    readabilityPlain: rd ? scored(p, rd).f1 : 0,
    ...(classifier.shingles && {
      shingles: {
        classifier: classifier.shingles,
        readability: readability.shingles ?? { precision: 0, recall: 0 },
        classifierBody: classifier.body,
      },
    }),
    ...(classifier.words && {
      words: {
        classifier: classifier.words,
        readability: readability.words ?? { precision: 0, recall: 0 },
      },
    }),
  };
}

/** Cases of every fold model on every page, and of the model fitted on all training pages. */
export interface SavedCases {
  folds: RouteCase[][];
  all: RouteCase[];
  /** Per page, whether it is one the models and route policies were fitted on (outside its fold). */
  trained: boolean[];
  /** Per page, its fold (`folds.ts`). */
  fold: number[];
}

export const CASES_FILE = new URL('../results/route-cases.json', import.meta.url).pathname;

export function saveCases(cases: SavedCases): void {
  mkdirSync(dirname(CASES_FILE), { recursive: true });
  writeFileSync(CASES_FILE, JSON.stringify(cases));
}

export function loadCases(): SavedCases {
  if (!existsSync(CASES_FILE))
    throw new Error(`${CASES_FILE} is missing: run train:main-content once without --route-only`);
  const cases = JSON.parse(readFileSync(CASES_FILE, 'utf8')) as Partial<SavedCases>;
  // Cases saved before the folds were grouped by site carry no folds; their folds were others.
  if (!cases.fold)
    throw new Error(
      `${CASES_FILE} predates the site folds: run train:main-content once without --route-only`,
    );
  return cases as SavedCases;
}
