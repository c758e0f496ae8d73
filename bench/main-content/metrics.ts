/**
 * The two data sets' own metrics, reimplemented from their descriptions in
 * the data sets' own READMEs. Python's `\w` is Unicode-aware, so tokens are letters, digits
 * and underscores of any script.
 */
const TOKEN = /[\p{L}\p{N}\p{M}_]+/gu;

export function tokens(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

/**
 * Markdown as text: a link or image target is not article text, nor is an image's alt text. A
 * target may hold backslash-escaped parentheses (`filters:no_upscale\(\)` in an image URL).
 */
export function markdownText(markdown: string): string {
  return markdown
    .replace(/!\[[^\]]*\]\((?:\\.|[^)\\])*\)/g, ' ')
    .replace(/\]\((?:\\.|[^)\\])*\)/g, ']');
}

function counts<T>(items: Iterable<T>): Map<T, number> {
  const map = new Map<T, number>();
  for (const item of items) map.set(item, (map.get(item) ?? 0) + 1);
  return map;
}

function* shingles(text: string, n: number): Iterable<string> {
  const t = tokens(text);
  for (let i = 0; i < Math.max(1, t.length - n + 1); i++) {
    const s = t.slice(i, i + n);
    if (s.length) yield s.join('\u0001');
  }
}

export interface PrecisionRecall {
  precision: number;
  recall: number;
}

/** article-extraction: 4-token shingles, tp/fp/fn with multiplicity, normalised by their sum. */
export function shingleScore(truth: string, predicted: string): PrecisionRecall {
  const t = counts(shingles(truth, 4));
  const p = counts(shingles(predicted, 4));
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const key of new Set([...t.keys(), ...p.keys()])) {
    const tc = t.get(key) ?? 0;
    const pc = p.get(key) ?? 0;
    tp += Math.min(tc, pc);
    fp += Math.max(0, pc - tc);
    fn += Math.max(0, tc - pc);
  }
  const sum = tp + fp + fn;
  if (sum > 0) {
    tp /= sum;
    fp /= sum;
    fn /= sum;
  }
  return { precision: tp + fp > 0 ? tp / (tp + fp) : 0, recall: tp + fn > 0 ? tp / (tp + fn) : 0 };
}

/** The F-beta of one precision and recall: beta under 1 weighs precision more. */
export function fBetaOf(s: PrecisionRecall, beta: number): number {
  const b2 = beta * beta;
  const d = b2 * s.precision + s.recall;
  return d > 0 ? ((1 + b2) * s.precision * s.recall) / d : 0;
}

/** The F-beta of counts of words (or weights) kept rightly, kept wrongly and missed; 0 when none is right. */
export function fBetaOfCounts(tp: number, fp: number, fn: number, beta: number): number {
  const b2 = beta * beta;
  return tp ? ((1 + b2) * tp) / ((1 + b2) * tp + b2 * fn + fp) : 0;
}

/** The F1 of one precision and recall. */
export const f1Of = (s: PrecisionRecall): number => fBetaOf(s, 1);

/** One page's shingle F1, the page-level figure behind f1OfAverages. */
export const shingleF1 = (truth: string, predicted: string) => f1Of(shingleScore(truth, predicted));

/** F1 of the averaged precision and recall, as the article-extraction benchmark reports it. */
export function f1OfAverages(scores: PrecisionRecall[]): number {
  return f1Of({
    precision: mean(scores.map((s) => s.precision)),
    recall: mean(scores.map((s) => s.recall)),
  });
}

/** WCXB's bag of lowercased words: the share of the words given that the truth holds, and of the truth's words given. */
export function bagOfWordsScore(truth: string, predicted: string): PrecisionRecall {
  const t = counts(tokens(truth.toLowerCase()));
  const p = counts(tokens(predicted.toLowerCase()));
  let overlap = 0;
  for (const [word, c] of p) overlap += Math.min(c, t.get(word) ?? 0);
  const pn = [...p.values()].reduce((a, b) => a + b, 0);
  const tn = [...t.values()].reduce((a, b) => a + b, 0);
  if (pn === 0 && tn === 0) return { precision: 1, recall: 1 };
  return { precision: pn ? overlap / pn : 0, recall: tn ? overlap / tn : 0 };
}

/** WCXB: bag-of-words F1 over lowercased tokens. */
export const bagOfWordsF1 = (truth: string, predicted: string): number =>
  f1Of(bagOfWordsScore(truth, predicted));

export function mean(values: number[]): number {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
}
