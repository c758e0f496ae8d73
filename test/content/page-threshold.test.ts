import { describe, expect, it } from 'vitest';
import { parseHtml } from '../../src/content/dom/parse.ts';
import type { Forest } from '../../src/content/main/forest.ts';
import { selectMainContent } from '../../src/content/main/main-content.ts';
import {
  chooseThreshold,
  MODEL_THRESHOLD_ONLY,
  type PageThreshold,
  pageFeatures,
} from '../../src/content/main/page-threshold.ts';
import {
  ESSAY,
  ESSAY_PARAGRAPHS,
  KEEP_CLASSIFIER_PICK,
  logit,
  scoringHeadings,
} from './essay-classifier.ts';

/** A forest of one leaf: the same probability for every page. */
const constant = (p: number): Forest => ({ base: logit(p), trees: [] });

/** A forest that is sure (0.9) when the page's mean score (feature 0) is at most `mean`, else sure of the opposite. */
const whenMeanAtMost = (mean: number): Forest => ({
  base: 0,
  trees: [
    {
      feature: [0, -1, -1],
      threshold: [mean, 0, 0],
      left: [1, -1, -1],
      right: [2, -1, -1],
      value: [0, logit(0.9), logit(0.1)],
    },
  ],
});

/**
 * A stand-in classifier unsure of the paragraphs (0.35) and sure of the subheadings (0.9): at
 * its threshold of 0.5 it keeps the subheadings alone, as the shipped one does on a page whose
 * content it scores low everywhere.
 */
const unsure = (pageThreshold: PageThreshold) =>
  scoringHeadings({ heading: 0.9, other: 0.35 }, KEEP_CLASSIFIER_PICK, pageThreshold);

const text = (choice: PageThreshold) =>
  selectMainContent(parseHtml(ESSAY), unsure(choice))?.textContent ?? '';

describe('the threshold a page is read at', () => {
  it('lowers it on a page the classifier is unsure of everywhere, when the forest says so', () => {
    const t = text({ candidates: [0.3], forests: [whenMeanAtMost(0.5)] });
    for (const n of ESSAY_PARAGRAPHS) expect(t).toContain(`KEEP-PARAGRAPH-${n}`);
    expect(t).toContain('What dredging costs');
  });

  it("keeps the model's threshold without page forests, or when none is over one half", () => {
    for (const choice of [MODEL_THRESHOLD_ONLY, { candidates: [0.3], forests: [constant(0.4)] }]) {
      const t = text(choice);
      expect(t).toContain('What dredging costs');
      expect(t).not.toContain('KEEP-PARAGRAPH');
    }
  });

  it("keeps the model's threshold where the forest reads a sure page", () => {
    expect(text({ candidates: [0.3], forests: [whenMeanAtMost(0.2)] })).not.toContain(
      'KEEP-PARAGRAPH',
    );
  });

  it('takes the candidate whose forest is surest', () => {
    const page = {
      words: [10, 30],
      blocks: [
        { text: 'a', linkChars: 0 },
        { text: 'b', linkChars: 0 },
      ],
      declaresArticle: false,
    };
    const choice = {
      candidates: [0.3, 0.6, 0.2],
      forests: [constant(0.7), constant(0.9), constant(0.6)],
    };
    expect(chooseThreshold(choice, page, [0.4, 0.8], 0.5)).toBe(0.6);
  });
});

describe('what the page forests read', () => {
  it('counts the words in each tenth of the score and what the threshold keeps', () => {
    const page = {
      words: [9, 29, 0],
      blocks: [
        { text: 'x'.repeat(50), linkChars: 50 },
        { text: 'y'.repeat(150), linkChars: 0 },
        { text: '', linkChars: 0 },
      ],
      declaresArticle: true,
    };
    const x = pageFeatures(page, [0.05, 0.75, 0.95], 0.5);
    // Each block weighs one word more than it holds: 10, 30 and 1 of 41.
    expect(x[0]).toBeCloseTo((10 * 0.05 + 30 * 0.75 + 0.95) / 41);
    expect(x.slice(1, 11).map((v) => v * 41)).toEqual(
      [10, 0, 0, 0, 0, 0, 0, 30, 0, 1].map((v) => expect.closeTo(v)),
    );
    // At or over 0.1, 0.2, ... 0.9.
    expect(x.slice(11, 20).map((v) => v * 41)).toEqual(
      [31, 31, 31, 31, 31, 31, 31, 1, 1].map((v) => expect.closeTo(v)),
    );
    const [total, kept, share, links, article, blocks, threshold] = x.slice(20);
    expect(total).toBeCloseTo(Math.log1p(41));
    expect(kept).toBeCloseTo(Math.log1p(29));
    expect(share).toBeCloseTo(29 / 41);
    expect(links).toBe(0);
    expect(article).toBe(1);
    expect(blocks).toBeCloseTo(Math.log1p(3));
    expect(threshold).toBe(0.5);
  });
});
