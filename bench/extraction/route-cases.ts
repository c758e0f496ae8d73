/**
 * What the route policy is fitted on: for each page and each classifier, the numbers the router
 * reads (what the classifier kept, how long Readability's pick is, how much the two agree) and
 * the F1 of each reading it could return. Fitting a policy from these takes milliseconds, so
 * `train.ts --route-only` refits the policy from a saved file without refitting the classifier.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { type BlockModel, classifyBlocks } from '../../src/content/block-model.ts';
import { BLOCK_ATTR } from '../../src/content/blocks.ts';
import { analysePage, readabilityPick, trimmable } from '../../src/content/main-content.ts';
import { parseHtml } from '../../src/content/parse.ts';
import { agreement, type KeptSummary } from '../../src/content/route.ts';
import { lacksDescription } from '../../src/content/structured-data.ts';
import { wordCount } from '../../src/content/words.ts';
import { bagOfWordsF1 } from './metrics.ts';
import type { PageBlocks, ReadabilityRun } from './train-lib.ts';

/** One page read by one classifier. */
export interface RouteCase {
  type: string;
  declaresArticle: boolean;
  kept: KeptSummary;
  /** Words of all the page's blocks. */
  pageWords: number;
  readabilityWords: number;
  /** Share of the classifier's kept words that Readability's pick holds too. */
  agreement: number;
  /**
   * F1 of the classifier's text and of Readability's, each with the product description the
   * converter adds; Readability's once per level of TRIM_LEVELS (its pick trimmed of the blocks
   * this classifier scores below the level).
   */
  classifier: number;
  readability: number[];
  /** The same without the product description, as main returned them. */
  classifierPlain: number;
  readabilityPlain: number;
}

/** The levels of RoutePolicy.trimBelow the fit tries; 0 trims nothing. */
export const TRIM_LEVELS = [0, 0.1, 0.2, 0.3, 0.4, 0.5];

/** The block whose trimming removes `node`: its nearest marked block if trimmable, else -1. */
function trimmedWith(node: Node): number {
  let el = node.parentElement;
  while (el && !el.hasAttribute(BLOCK_ATTR)) el = el.parentElement;
  return el && trimmable(el) ? Number(el.getAttribute(BLOCK_ATTR)) : -1;
}

function textRuns(node: Node, runs: ReadabilityRun[]): ReadabilityRun[] {
  for (const child of node.childNodes) {
    if (child.nodeType === 3) runs.push([child.textContent ?? '', trimmedWith(child)]);
    else if (child.nodeType === 1) textRuns(child, runs);
  }
  return runs;
}

/**
 * Readability's pick as the converter reads it, as runs of text each with the block that the
 * converter's trimming would remove it with (trimmedBlocks), so the text
 * at any trim level is a filter of the runs.
 */
export function readabilityRuns(p: PageBlocks): ReadabilityRun[] {
  if (!p.readability) {
    const doc = parseHtml(p.page.html);
    analysePage(doc);
    const picked = readabilityPick(doc);
    p.readability = picked ? textRuns(picked, []) : [];
  }
  return p.readability;
}

/** Readability's text with the blocks scored below `below` removed, as the converter trims it. */
export function readabilityText(p: PageBlocks, scores: number[], below = 0): string {
  return readabilityRuns(p)
    .filter(([, i]) => below <= 0 || i < 0 || i === p.title || scores[i]! >= below)
    .map(([text]) => text)
    .join('');
}

/** The classifier's kept blocks (title aside) and their numbers. */
export function classifierPick(
  model: BlockModel,
  p: PageBlocks,
): { scores: number[]; keep: boolean[]; kept: KeptSummary } {
  const scores = classifyBlocks(model, p.features, p.words, p.groups);
  const keep = scores.map((s) => s >= model.threshold);
  const kept: KeptSummary = { words: 0, chars: 0, linkChars: 0 };
  keep.forEach((k, i) => {
    if (!k) return;
    kept.words += p.words[i]!;
    kept.chars += p.texts[i]!.length;
    kept.linkChars += p.linkChars[i]!;
  });
  return { scores, keep, kept };
}

export const classifierText = (p: PageBlocks, keep: boolean[]) =>
  p.texts.filter((_, i) => i === p.title || keep[i]).join('\n');

/** The converter adds a product's JSON-LD description to whichever reading lacks it. */
export function withDescription(p: PageBlocks, text: string): string {
  return p.productDescription && lacksDescription(text, p.productDescription)
    ? `${text}\n${p.productDescription}`
    : text;
}

export function routeCase(model: BlockModel, p: PageBlocks): RouteCase {
  const { scores, keep, kept } = classifierPick(model, p);
  const cls = classifierText(p, keep);
  const rd = readabilityText(p, scores);
  const truth = p.page.truth;
  const rdScore = (text: string) => (rd ? bagOfWordsF1(truth, withDescription(p, text)) : 0);
  return {
    type: p.page.type,
    declaresArticle: p.declaresArticle,
    kept,
    pageWords: p.words.reduce((a, w) => a + w, 0),
    readabilityWords: wordCount(rd),
    agreement: agreement(p.texts.filter((_, i) => keep[i]).join('\n'), rd),
    classifier: bagOfWordsF1(truth, withDescription(p, cls)),
    readability: TRIM_LEVELS.map((below) =>
      rdScore(readabilityText(p, scores, p.declaresArticle ? below : 0)),
    ),
    classifierPlain: bagOfWordsF1(truth, cls),
    readabilityPlain: rd ? bagOfWordsF1(truth, rd) : 0,
  };
}

/** Cases of every fold model on every page, and of the model fitted on all pages. */
export interface SavedCases {
  folds: RouteCase[][];
  all: RouteCase[];
}

export const CASES_FILE = new URL('../results/route-cases.json', import.meta.url).pathname;

export function saveCases(cases: SavedCases): void {
  mkdirSync(dirname(CASES_FILE), { recursive: true });
  writeFileSync(CASES_FILE, JSON.stringify(cases));
}

export function loadCases(): SavedCases {
  if (!existsSync(CASES_FILE))
    throw new Error(`${CASES_FILE} is missing: run train:extraction once without --route-only`);
  return JSON.parse(readFileSync(CASES_FILE, 'utf8')) as SavedCases;
}
