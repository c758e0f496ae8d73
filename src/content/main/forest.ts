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

/**
 * The trees laid end to end in typed arrays, node indices absolute, so a block's score walks flat
 * arrays rather than each tree object's own; with one input buffer per page (`classifyBlocks`),
 * classifying took 1.4 ms an article-extraction page instead of 1.7. Each node's two children
 * are laid side by side (right = left + 1) and a leaf keeps its value where an inner node keeps
 * its threshold, so a step reads three arrays of 16 bytes a node rather than five of 28; a block
 * walks 200 trees, and the smaller forest stays in the processor's cache.
 */
interface FlatForest {
  base: number;
  roots: Int32Array;
  /** The feature a node splits on, -1 at a leaf. */
  feature: Int32Array;
  /** An inner node's threshold; a leaf's value. */
  split: Float64Array;
  /** An inner node's left child; its right child follows it. */
  left: Int32Array;
}

const flattened = new WeakMap<Forest, FlatForest>();

function flatten(forest: Forest): FlatForest {
  const size = forest.trees.reduce((a, t) => a + t.feature.length, 0);
  const flat: FlatForest = {
    base: forest.base,
    roots: new Int32Array(forest.trees.length),
    feature: new Int32Array(size),
    split: new Float64Array(size),
    left: new Int32Array(size),
  };
  let next = 0;
  forest.trees.forEach((tree, t) => {
    flat.roots[t] = next;
    // Breadth first: each inner node's children take the next two places.
    const queue: Array<[number, number]> = [[0, next++]];
    for (const [n, at] of queue) {
      const f = tree.feature[n]!;
      flat.feature[at] = f;
      if (f < 0) {
        flat.split[at] = tree.value[n]!;
        continue;
      }
      flat.split[at] = tree.threshold[n]!;
      flat.left[at] = next;
      queue.push([tree.left[n]!, next], [tree.right[n]!, next + 1]);
      next += 2;
    }
  });
  return flat;
}

/** The probability the forest gives `x`: the sigmoid of the base plus every tree's leaf. */
export function forestProbability(forest: Forest, x: ArrayLike<number>): number {
  let flat = flattened.get(forest);
  if (!flat) {
    flat = flatten(forest);
    flattened.set(forest, flat);
  }
  const { feature, split, left } = flat;
  let z = flat.base;
  for (const root of flat.roots) {
    let node = root;
    for (let f = feature[node]!; f >= 0; f = feature[node]!)
      node = left[node]! + ((x[f] ?? 0) <= split[node]! ? 0 : 1);
    z += split[node]!;
  }
  return 1 / (1 + Math.exp(-z));
}
