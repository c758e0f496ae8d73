/**
 * Boosted regression trees, as the block classifier's second stage reads them. Each tree is
 * stored as parallel arrays, node 0 the root, so the model file stays plain JSON and a block's
 * score is a few array reads per tree.
 */
export interface Tree {
  /** The feature each node splits on; -1 marks a leaf. */
  feature: number[];
  /** A block goes left when its feature is at or below the node's threshold. */
  threshold: number[];
  left: number[];
  right: number[];
  /** A leaf's contribution to the log-odds; unused on inner nodes. */
  value: number[];
}

export interface Forest {
  /** The log-odds every block starts from. */
  base: number;
  trees: Tree[];
}

/** The leaf value `x` reaches in `tree`; a feature missing from `x` reads as 0. */
export function treeValue(tree: Tree, x: readonly number[]): number {
  let node = 0;
  for (let f = tree.feature[0]!; f >= 0; f = tree.feature[node]!)
    node = (x[f] ?? 0) <= tree.threshold[node]! ? tree.left[node]! : tree.right[node]!;
  return tree.value[node]!;
}

/** The probability the forest gives `x`: the sigmoid of the base plus every tree's leaf. */
export function forestProbability(forest: Forest, x: readonly number[]): number {
  let z = forest.base;
  for (const tree of forest.trees) z += treeValue(tree, x);
  return 1 / (1 + Math.exp(-z));
}
