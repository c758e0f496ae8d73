/**
 * Fits the block classifier's stage two (src/content/forest.ts) by gradient boosting on the
 * logistic loss: histogram split finding over quantile bins, Newton leaf values, depth-wise
 * growth. Written here rather than taken from a library because the npm boosting packages are
 * native addons (which cannot be built here) or non-deterministic WebAssembly ports, and the
 * model file must come out the same on every run: no sampling, ties go to the first feature and
 * bin, every stored number is rounded before the next tree reads it.
 */
import { type Forest, type Tree, treeValue } from '../../src/content/main/forest.ts';
import type { Row } from './train-lib.ts';

export interface ForestOptions {
  trees: number;
  depth: number;
  learningRate: number;
  /** L2 penalty on leaf values, in units of summed weighted hessian. */
  lambda: number;
  /** A split is refused when either side's summed hessian is below this. */
  minLeafHessian: number;
  /** At most this many bins per feature (at most 256). */
  bins: number;
}

export const FOREST_OPTIONS: ForestOptions = {
  trees: 200,
  depth: 5,
  learningRate: 0.1,
  lambda: 10,
  minLeafHessian: 40,
  bins: 64,
};

const round = (v: number) => Math.round(v * 1e6) / 1e6;

/** Cut points at the quantiles of one feature's values; bin b holds values in (cut[b-1], cut[b]]. */
function cutsOf(values: Float64Array, bins: number): number[] {
  const sorted = Float64Array.from(values).sort();
  const cuts: number[] = [];
  for (let b = 1; b < bins; b++) {
    const cut = round(sorted[Math.floor((b * sorted.length) / bins)]!);
    if (cut < round(sorted[sorted.length - 1]!) && cut !== cuts[cuts.length - 1]) cuts.push(cut);
  }
  return cuts;
}

function binOf(cuts: number[], v: number): number {
  let lo = 0;
  let hi = cuts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (v <= cuts[mid]!) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

interface Node {
  rows: Uint32Array;
  g: Float64Array;
  h: Float64Array;
  depth: number;
  /** Where the node sits in the tree being built. */
  id: number;
}

export function fitForest(rows: Row[], options: ForestOptions = FOREST_OPTIONS): Forest {
  const n = rows.length;
  const d = rows[0]?.f.length ?? 0;
  const { bins } = options;
  const cuts: number[][] = [];
  const binned = new Uint8Array(n * d);
  const column = new Float64Array(n);
  for (let j = 0; j < d; j++) {
    for (let i = 0; i < n; i++) column[i] = rows[i]!.f[j] ?? 0;
    const c = cutsOf(column, bins);
    cuts.push(c);
    for (let i = 0; i < n; i++) binned[i * d + j] = binOf(c, column[i]!);
  }
  let sw = 0;
  let sy = 0;
  for (const r of rows) {
    sw += r.w;
    sy += r.w * r.y;
  }
  const mean = Math.min(1 - 1e-6, Math.max(1e-6, sy / sw));
  const base = round(Math.log(mean / (1 - mean)));
  const score = new Float64Array(n).fill(base);
  const grad = new Float64Array(n);
  const hess = new Float64Array(n);
  const histogram = (idx: Uint32Array) => {
    const g = new Float64Array(d * bins);
    const h = new Float64Array(d * bins);
    for (const i of idx) {
      const gi = grad[i]!;
      const hi = hess[i]!;
      const at = i * d;
      for (let j = 0; j < d; j++) {
        const k = j * bins + binned[at + j]!;
        g[k]! += gi;
        h[k]! += hi;
      }
    }
    return { g, h };
  };
  const trees: Tree[] = [];
  for (let t = 0; t < options.trees; t++) {
    for (let i = 0; i < n; i++) {
      const p = 1 / (1 + Math.exp(-score[i]!));
      grad[i] = rows[i]!.w * (p - rows[i]!.y);
      hess[i] = rows[i]!.w * p * (1 - p);
    }
    const tree: Tree = { feature: [], threshold: [], left: [], right: [], value: [] };
    const addNode = () => {
      tree.feature.push(-1);
      tree.threshold.push(0);
      tree.left.push(-1);
      tree.right.push(-1);
      tree.value.push(0);
      return tree.feature.length - 1;
    };
    const all = new Uint32Array(n);
    for (let i = 0; i < n; i++) all[i] = i;
    let level: Node[] = [{ rows: all, ...histogram(all), depth: 0, id: addNode() }];
    while (level.length) {
      const next: Node[] = [];
      for (const node of level) {
        let G = 0;
        let H = 0;
        for (let b = 0; b < bins; b++) {
          G += node.g[b]!;
          H += node.h[b]!;
        }
        const leaf = () => {
          tree.value[node.id] = round((-options.learningRate * G) / (H + options.lambda));
        };
        if (node.depth >= options.depth || node.rows.length < 2) {
          leaf();
          continue;
        }
        const parentGain = (G * G) / (H + options.lambda);
        let best = 1e-9;
        let bestFeature = -1;
        let bestBin = -1;
        for (let j = 0; j < d; j++) {
          let gl = 0;
          let hl = 0;
          const last = cuts[j]!.length;
          for (let b = 0; b < last; b++) {
            gl += node.g[j * bins + b]!;
            hl += node.h[j * bins + b]!;
            const hr = H - hl;
            if (hl < options.minLeafHessian || hr < options.minLeafHessian) continue;
            const gr = G - gl;
            const gain =
              (gl * gl) / (hl + options.lambda) + (gr * gr) / (hr + options.lambda) - parentGain;
            if (gain > best) {
              best = gain;
              bestFeature = j;
              bestBin = b;
            }
          }
        }
        if (bestFeature < 0) {
          leaf();
          continue;
        }
        let leftCount = 0;
        for (const i of node.rows) if (binned[i * d + bestFeature]! <= bestBin) leftCount++;
        const leftRows = new Uint32Array(leftCount);
        const rightRows = new Uint32Array(node.rows.length - leftCount);
        let l = 0;
        let r = 0;
        for (const i of node.rows)
          if (binned[i * d + bestFeature]! <= bestBin) leftRows[l++] = i;
          else rightRows[r++] = i;
        // The smaller child's histogram is counted; the larger one's is the parent's minus it.
        const smallIsLeft = leftCount <= rightRows.length;
        const small = histogram(smallIsLeft ? leftRows : rightRows);
        const large = { g: node.g, h: node.h };
        for (let k = 0; k < d * bins; k++) {
          large.g[k]! -= small.g[k]!;
          large.h[k]! -= small.h[k]!;
        }
        const leftId = addNode();
        const rightId = addNode();
        tree.feature[node.id] = bestFeature;
        tree.threshold[node.id] = cuts[bestFeature]![bestBin]!;
        tree.left[node.id] = leftId;
        tree.right[node.id] = rightId;
        const depth = node.depth + 1;
        next.push(
          { rows: leftRows, ...(smallIsLeft ? small : large), depth, id: leftId },
          { rows: rightRows, ...(smallIsLeft ? large : small), depth, id: rightId },
        );
      }
      level = next;
    }
    for (let i = 0; i < n; i++) score[i]! += treeValue(tree, rows[i]!.f);
    trees.push(tree);
  }
  return { base, trees };
}
