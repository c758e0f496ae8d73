import { describe, expect, it } from 'vitest';
import { contextFeatures } from '../../src/content/main/block-model.ts';

// Layout of a block's context: stage-one log-odds, log words, short, log signature size, then the
// highest and lowest score of its parent, grandparent, great-grandparent and run, then the page's
// mean score, its share of words at 0.5 or more and its share of words scored higher.
const EXTREMES = 4;
const PAGE = EXTREMES + 8;

describe('contextFeatures', () => {
  // Three paragraphs under one parent (signature 0), a menu entry and a footer line elsewhere.
  const p1 = [0.9, 0.2, 0.6, 0.1, 0.3];
  const words = [39, 9, 19, 1, 29];
  const groups = [
    [0, 10, 20, -1, 0],
    [0, 10, 20, -1, 0],
    [0, 10, 20, -1, 0],
    [1, 11, 20, -1, 1],
    [2, 12, 21, -1, 0],
  ];
  const context = contextFeatures(p1, words, groups);

  it("gives each block its parent's highest and lowest score, and its own where it has no group", () => {
    expect(context[1]!.slice(EXTREMES, EXTREMES + 2)).toEqual([0.9, 0.2]);
    expect(context[3]!.slice(EXTREMES, EXTREMES + 2)).toEqual([0.1, 0.1]);
    // Great-grandparent 20 holds the paragraphs and the menu entry.
    expect(context[3]!.slice(EXTREMES + 4, EXTREMES + 6)).toEqual([0.9, 0.1]);
    // No run: the block's own score.
    expect(context[2]!.slice(EXTREMES + 6, EXTREMES + 8)).toEqual([0.6, 0.6]);
  });

  it('counts the blocks of a markup signature wherever they stand', () => {
    expect(context.map((c) => Math.round(Math.expm1(c[3]!)))).toEqual([4, 4, 4, 1, 4]);
  });

  it("places each block in how the page scored: the page's mean, its share at 0.5 or more, and the share scored higher", () => {
    // Word weights (words + 1): 40, 10, 20, 2, 30 of 102.
    const [mean, above, higherThanSecond] = context[1]!.slice(PAGE, PAGE + 3);
    expect(mean).toBeCloseTo((40 * 0.9 + 10 * 0.2 + 20 * 0.6 + 2 * 0.1 + 30 * 0.3) / 102, 10);
    expect(above).toBeCloseTo(60 / 102, 10);
    expect(higherThanSecond).toBeCloseTo(90 / 102, 10);
    expect(context[0]![PAGE + 2]).toBe(0);
  });
});
