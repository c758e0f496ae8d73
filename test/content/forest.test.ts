import { describe, expect, it } from 'vitest';
import {
  type Forest,
  forestProbability,
  type Tree,
  treeValue,
} from '../../src/content/main/forest.ts';

/** Splits on feature 1 at 2.5; the right side splits again on feature 0 at -1. */
const tree: Tree = {
  feature: [1, -1, 0, -1, -1],
  threshold: [2.5, 0, -1, 0, 0],
  left: [1, -1, 3, -1, -1],
  right: [2, -1, 4, -1, -1],
  value: [0, 0.5, 0, -0.25, 2],
};

describe('boosted trees', () => {
  it('sends a value at the threshold left and one above it right', () => {
    expect(treeValue(tree, [0, 2.5])).toBe(0.5);
    expect(treeValue(tree, [-1, 2.6])).toBe(-0.25);
    expect(treeValue(tree, [3, 2.6])).toBe(2);
  });

  it('reads a feature the input lacks as 0', () => {
    expect(treeValue(tree, [])).toBe(0.5);
    expect(treeValue(tree, [5])).toBe(0.5);
  });

  it('adds every tree onto the base before the sigmoid', () => {
    const forest: Forest = { base: -1, trees: [tree, tree] };
    const z = -1 + 2 * 2;
    expect(forestProbability(forest, [3, 9])).toBeCloseTo(1 / (1 + Math.exp(-z)), 12);
    expect(forestProbability({ base: 0, trees: [] }, [3, 9])).toBe(0.5);
  });

  it('reads a tree stored in any node order as its links say', () => {
    // Root 4; its right subtree stored first, children apart from each other.
    const scattered: Tree = {
      feature: [2, -1, -1, -1, 0, -1, 1],
      threshold: [0.5, 0, 0, 0, 1, 0, -2],
      left: [1, -1, -1, -1, 6, -1, 3],
      right: [2, -1, -1, -1, 0, -1, 5],
      value: [0, 0.75, -0.5, 1.5, 0, -3, 0],
    };
    const forest: Forest = { base: 0.25, trees: [scattered, tree] };
    for (const x of [
      [0, 0, 0],
      [2, 0, 0.5],
      [2, 0, 0.6],
      [0.5, -2, 9],
      [1, -2.5, 0],
      [1, 3, 0],
    ]) {
      const z = 0.25 + treeValue(scattered, x) + treeValue(tree, x);
      expect(forestProbability(forest, x)).toBe(1 / (1 + Math.exp(-z)));
    }
  });
});
