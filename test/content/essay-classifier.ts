/**
 * An essay that declares nothing (subheadings between long paragraphs, each marked KEEP-PARAGRAPH-n)
 * and a stand-in block classifier that scores its subheadings and its other blocks as a test
 * tells it, so a test can put the classifier's pick where it needs it.
 */
import type { BlockModel } from '../../src/content/main/block-model.ts';
import { MODEL_THRESHOLD_ONLY, type PageThreshold } from '../../src/content/main/page-threshold.ts';
import { NEVER, type RoutePolicy } from '../../src/content/main/route.ts';

const paragraph = (n: number) =>
  `<p>KEEP-PARAGRAPH-${n} The tide brings sand in faster than the river carries it out, so every few years the channel narrows, ` +
  `the ferries run aground at low water, and the harbour office has to choose between dredging, which is costly, and waiting, which is slow.</p>`;

export const ESSAY_HEADINGS = [
  'Why the harbour silts up',
  'What dredging costs',
  'What the council decided',
];

/** Two paragraphs under each subheading: 0 and 10, 1 and 11, 2 and 12. */
export const ESSAY = `<!doctype html><html><head><title>The harbour channel</title></head><body><div class="essay">${ESSAY_HEADINGS.map(
  (h, i) => `<h2>${h}</h2>${paragraph(i)}${paragraph(i + 10)}`,
).join('')}</div></body></html>`;

export const ESSAY_PARAGRAPHS = [0, 1, 2, 10, 11, 12];

/** Where the h2-h6 tag group sits in a block's features (blocks.ts: 11 own features, then p, li, h1, h). */
const HEADING_FEATURE = 14;

/** A route policy under which the classifier's pick stands whenever it keeps text. */
export const KEEP_CLASSIFIER_PICK: RoutePolicy = {
  shortWords: 0,
  ratio: 1,
  declaredWords: NEVER,
  declaredAgreement: NEVER,
  menuRatio: 0,
};

export const logit = (p: number) => Math.log(p / (1 - p));

/**
 * A classifier that scores subheadings `heading` and every other block `other`, with a threshold
 * of 0.5: stage one reads only whether a block is a subheading, stage two only stage one's verdict.
 */
export const scoringHeadings = (
  scores: { heading: number; other: number },
  route: RoutePolicy,
  pageThreshold: PageThreshold = MODEL_THRESHOLD_ONLY,
): BlockModel => ({
  stage1: {
    means: new Array(HEADING_FEATURE + 1).fill(0),
    scales: new Array(HEADING_FEATURE + 1).fill(1),
    weights: [...new Array(HEADING_FEATURE).fill(0), 20],
    bias: -10,
    tokens: [],
  },
  // Stage two reads stage one's log-odds (its input 0): below 0, another block; above, a subheading.
  stage2: {
    base: 0,
    trees: [
      {
        feature: [0, -1, -1],
        threshold: [0, 0, 0],
        left: [1, -1, -1],
        right: [2, -1, -1],
        value: [0, logit(scores.other), logit(scores.heading)],
      },
    ],
  },
  threshold: 0.5,
  pageThreshold,
  route,
});
