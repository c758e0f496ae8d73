import { readFileSync } from 'node:fs';
import { type Forest, forestProbability } from './forest.ts';
import type { PageThreshold } from './page-threshold.ts';
import type { RoutePolicy } from './route.ts';

/** A logistic regression over standardised features and hashed words. */
export interface Logistic {
  /** Feature means and spreads of the training blocks, to put every feature on one scale. */
  means: number[];
  scales: number[];
  weights: number[];
  bias: number;
  /** A weight per bucket of the block's hashed words (`block-tokens.ts`). */
  tokens: number[];
}

/** What the classifier reads of a page, per block. */
export interface BlockInputs {
  features: number[][];
  /** Hashed words (`block-tokens.ts`). */
  tokens: number[][];
  words: number[];
  /** Parent, grandparent, great-grandparent, repeated-run and markup-signature ids (`blocks.ts`). */
  groups: number[][];
}

/**
 * The block classifier, trained by bench/main-content/train.ts (`npm run train:main-content`) on
 * the WCXB dev pages and shipped beside this file. Stage one judges each block on its own
 * features; stage two judges it again beside how its neighbours and the blocks under the same
 * parents scored, so a short line inside a run of content stays and a long one inside a menu goes.
 * Stage two is a forest of boosted trees rather than a second logistic: what a block's own
 * features mean depends on its context (a short line is content inside a post, boilerplate
 * inside a footer), and trees learn those interactions where a linear score cannot.
 */
export interface BlockModel {
  stage1: Logistic;
  stage2: Forest;
  /** Blocks whose stage-two probability is at or above this are content... */
  threshold: number;
  /** ...unless the page's own scores say another threshold reads it better (`page-threshold.ts`). */
  pageThreshold: PageThreshold;
  /** When Readability's pick replaces the kept blocks. */
  route: RoutePolicy;
}

export function probability(model: Logistic, features: number[], tokens: number[]): number {
  let z = model.bias;
  for (let i = 0; i < model.weights.length; i++)
    z += (model.weights[i]! * ((features[i] ?? 0) - model.means[i]!)) / model.scales[i]!;
  for (const t of tokens) z += model.tokens[t] ?? 0;
  return 1 / (1 + Math.exp(-z));
}

/** Highest and lowest `p` over the blocks of each group id, per block. */
function groupExtremes(p: number[], ids: number[]): [number[], number[]] {
  const high = new Map<number, number>();
  const low = new Map<number, number>();
  ids.forEach((id, i) => {
    high.set(id, Math.max(high.get(id) ?? 0, p[i]!));
    low.set(id, Math.min(low.get(id) ?? 1, p[i]!));
  });
  return [
    ids.map((id, i) => (id < 0 ? p[i]! : high.get(id)!)),
    ids.map((id, i) => (id < 0 ? p[i]! : low.get(id)!)),
  ];
}

/** Word-weighted mean of `p` over the blocks of each group id, per block. */
function groupMeans(p: number[], words: number[], ids: number[]): number[] {
  const sum = new Map<number, number>();
  const weight = new Map<number, number>();
  ids.forEach((id, i) => {
    const w = words[i]! + 1;
    sum.set(id, (sum.get(id) ?? 0) + w * p[i]!);
    weight.set(id, (weight.get(id) ?? 0) + w);
  });
  return ids.map((id, i) => (id < 0 ? p[i]! : sum.get(id)! / weight.get(id)!));
}

const logit = (p: number) => Math.log(Math.max(1e-6, p) / Math.max(1e-6, 1 - p));

/** How many blocks share each block's group id. */
function groupSizes(ids: number[]): number[] {
  const size = new Map<number, number>();
  for (const id of ids) size.set(id, (size.get(id) ?? 0) + 1);
  return ids.map((id) => size.get(id)!);
}

/**
 * How the page as a whole scored at stage one, per block: the page's word-weighted mean score,
 * the share of its words scored 0.5 or more, and the share of its words in blocks scored higher
 * than this one. A page where stage one is unsure everywhere reads its scores otherwise than one
 * with a clear body of content.
 */
function pageScores(p1: number[], words: number[]): number[][] {
  let total = 0;
  let sum = 0;
  let above = 0;
  p1.forEach((p, i) => {
    total += words[i]! + 1;
    sum += (words[i]! + 1) * p;
    if (p >= 0.5) above += words[i]! + 1;
  });
  const order = p1.map((_, i) => i).sort((a, b) => p1[b]! - p1[a]! || a - b);
  const higher = new Array<number>(p1.length);
  let seen = 0;
  for (const i of order) {
    higher[i] = seen / total;
    seen += words[i]! + 1;
  }
  return p1.map((_, i) => [sum / total, above / total, higher[i]!]);
}

/**
 * Stage two's features: the block's own stage-one score and those around it: its neighbours in
 * page order; the blocks under the same parent, grandparent and great-grandparent, of the run of
 * repeated items it belongs to (a thread's posts, a listing's cards) and of its markup signature
 * (the paragraphs of every post, wherever they stand), as means, and for the first four also
 * their highest and lowest (a heading over one strong paragraph, a menu with one long entry:
 * what a mean blurs); and how the page as a whole scored.
 */
export function contextFeatures(p1: number[], words: number[], groups: number[][]): number[][] {
  const ids = [0, 1, 2, 3, 4].map((level) => groups.map((g) => g[level] ?? -1));
  const levels = ids.map((group) => groupMeans(p1, words, group));
  const extremes = ids.slice(0, 4).map((group) => groupExtremes(p1, group));
  const signatureSizes = groupSizes(ids[4]!);
  const page = pageScores(p1, words);
  const window = (i: number, r: number) => {
    let s = 0;
    let w = 0;
    for (let j = Math.max(0, i - r); j <= Math.min(p1.length - 1, i + r); j++) {
      s += (words[j]! + 1) * p1[j]!;
      w += words[j]! + 1;
    }
    return s / w;
  };
  return p1.map((p, i) => {
    const short = words[i]! < 8 ? 1 : 0;
    const near = [
      p1[i - 1] ?? 0,
      p1[i + 1] ?? 0,
      window(i, 3),
      window(i, 10),
      levels[0]![i]!,
      levels[1]![i]!,
      levels[2]![i]!,
      levels[3]![i]!,
      levels[4]![i]!,
    ];
    // Pushed in turn: spreads of a flatMap and a map made five arrays a block to copy.
    const context = [logit(p), Math.log1p(words[i]!), short, Math.log1p(signatureSizes[i]!)];
    for (const [high, low] of extremes) context.push(high[i]!, low[i]!);
    context.push(...page[i]!, ...near);
    for (const v of near) context.push(v * short);
    return context;
  });
}

/**
 * What stage two reads per block: its context (first, so feature 0 is the stage-one log-odds)
 * followed by its own features, which the trees may combine with the context. Laid out in one
 * buffer that `read` sees each block's input in, in turn (reused, so a reader that keeps it must
 * copy it), rather than an array of some 150 numbers made per block for the collector to take back.
 */
function eachStageTwoInput<T>(p1: number[], page: BlockInputs, read: (x: Float64Array) => T): T[] {
  const contexts = contextFeatures(p1, page.words, page.groups);
  const x = new Float64Array((contexts[0]?.length ?? 0) + (page.features[0]?.length ?? 0));
  return contexts.map((context, i) => {
    x.set(context);
    x.set(page.features[i]!, context.length);
    return read(x);
  });
}

/** Stage two's input per block from given stage-one scores (training scores each block by a model that did not see it). */
export function stageTwoFrom(p1: number[], page: BlockInputs): number[][] {
  return eachStageTwoInput(p1, page, (x) => Array.from(x));
}

/** Stage-two probability of each block being content. */
export function classifyBlocks(model: BlockModel, page: BlockInputs): number[] {
  const p1 = page.features.map((f, i) => probability(model.stage1, f, page.tokens[i]!));
  return eachStageTwoInput(p1, page, (x) => forestProbability(model.stage2, x));
}

let shipped: BlockModel | undefined;

export function shippedModel(): BlockModel {
  shipped ??= JSON.parse(
    readFileSync(new URL('./block-model.json', import.meta.url), 'utf8'),
  ) as BlockModel;
  return shipped;
}

/**
 * Which blocks to keep, given their scores: those at or above the threshold, and every cell of the
 * label-value rows of a table (blocks.ts) one of whose cells is kept, since a spec's label
 * without its value tells a reader nothing, a spec sheet is read whole, and the classifier,
 * judging cells one by one, often drops a row whose value is a bare number or unit.
 */
export function keptBlocks(scores: number[], threshold: number, specTables: number[]): boolean[] {
  const keptTables = new Set<number>();
  scores.forEach((s, i) => {
    if (s >= threshold && specTables[i]! >= 0) keptTables.add(specTables[i]!);
  });
  return scores.map((s, i) => s >= threshold || keptTables.has(specTables[i]!));
}
