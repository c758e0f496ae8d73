/**
 * A summary without an LLM: the page's passages most relevant to the query, in page order.
 * Hand-written because it is small and must be exact about what it returns (whole sentences, page
 * order, a hard length bound); the ranking is textbook BM25 over two granularities, paragraphs
 * and sentences, so a sentence gains from its own words and from the paragraph around it.
 */

const K1 = 1.2;
const B = 0.75;
/** How much a sentence's paragraph counts beside the sentence itself. */
const PARAGRAPH_WEIGHT = 0.5;

/** Words too common to say what a query is about (English; other languages rank on all words). */
const STOPWORDS = new Set(
  'a an and are as at be by can could did do does for from had has have how i if in into is it its me my of on or our should so than that the their them then there these they this to was we were what when where which who whom why will with would you your about tell give list name show find explain summarise summarize describe page'.split(
    ' ',
  ),
);

interface Sentence {
  text: string;
  paragraph: number;
  terms: string[];
}

/** Lower-cased words and numbers, with a plural `s` taken off so "zones" finds "zone". */
function terms(text: string): string[] {
  const out: string[] = [];
  for (const [word] of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    if (STOPWORDS.has(word)) continue;
    out.push(
      word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word,
    );
  }
  return out;
}

const LIST_ITEM = /^\s*([-*+]|\d+[.)])\s+/;

/** Markdown inline syntax to its text. */
function plain(text: string): string {
  return text
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Markdown to passages: prose paragraphs, and each list item on its own (items rarely end in a
 * full stop, so a list read as one paragraph would be one endless sentence). Code, tables,
 * images, rules and bare headings are not passages.
 */
function paragraphs(markdown: string): string[] {
  const blocks = markdown.replace(/```[\s\S]*?```/g, '\n\n').split(/\n\s*\n/);
  const out: string[] = [];
  for (const block of blocks) {
    let current: string[] = [];
    const flush = () => {
      const text = plain(current.join(' '));
      if (text) out.push(text);
      current = [];
    };
    for (const line of block.split('\n')) {
      if (/^\s*(\||#{1,6}\s|[-*_]{3,}\s*$)/.test(line)) continue;
      if (LIST_ITEM.test(line)) flush();
      current.push(line.replace(/^\s*(>\s*)*/, '').replace(LIST_ITEM, ''));
    }
    flush();
  }
  return out;
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'sentence' });

function sentencesOf(paras: string[]): Sentence[] {
  const out: Sentence[] = [];
  for (const [paragraph, text] of paras.entries()) {
    for (const { segment } of segmenter.segment(text)) {
      const sentence = segment.trim();
      if (sentence) out.push({ text: sentence, paragraph, terms: terms(sentence) });
    }
  }
  return out;
}

/** BM25 score of each document for the query terms. */
function bm25(docs: string[][], query: string[]): number[] {
  const unique = new Set(query);
  const n = docs.length;
  const avg = docs.reduce((sum, d) => sum + d.length, 0) / Math.max(1, n) || 1;
  // Only query terms matter, so only they are counted.
  const tfs = docs.map((doc) => {
    const tf = new Map<string, number>();
    for (const t of doc) if (unique.has(t)) tf.set(t, (tf.get(t) ?? 0) + 1);
    return tf;
  });
  const df = new Map<string, number>();
  for (const tf of tfs) for (const term of tf.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  return docs.map((doc, i) => {
    let score = 0;
    for (const [term, tf] of tfs[i]!) {
      const d = df.get(term)!;
      const idf = Math.log(1 + (n - d + 0.5) / (d + 0.5));
      score += (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * doc.length) / avg));
    }
    return score;
  });
}

/** Cuts a single over-long sentence at a word boundary, marking the cut. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * The sentences that best match `query`, at most `maxChars` long in all, in page order;
 * sentences of one paragraph are joined by a space, paragraphs by a blank line. Only sentences
 * holding a query term are chosen; when none does, the page's opening sentences stand in.
 */
export function extractiveSummary(markdown: string, query: string, maxChars: number): string {
  const paras = paragraphs(markdown);
  const sentences = sentencesOf(paras);
  if (sentences.length === 0) return '';
  const q = terms(query);
  const paraScores = bm25(
    paras.map((p) => terms(p)),
    q,
  );
  const sentenceScores = bm25(
    sentences.map((s) => s.terms),
    q,
  );
  const scored = sentences.map((s, i) => ({
    i,
    score: sentenceScores[i]! + PARAGRAPH_WEIGHT * paraScores[s.paragraph]!,
  }));
  // Only sentences holding a query term are candidates; their paragraph's relevance orders them.
  const ranked = scored
    .filter((s) => sentenceScores[s.i]! > 0)
    .sort((a, b) => b.score - a.score || a.i - b.i);
  // Without a match the page's opening stands in, read straight on: no skipping ahead to fill the bound.
  const leadOnly = ranked.length === 0;
  const order = leadOnly ? sentences.map((_, i) => i) : ranked.map((s) => s.i);

  const chosen: number[] = [];
  let used = 0;
  for (const i of order) {
    // Every join is counted as a blank line, the longer separator, so the bound always holds.
    const cost = sentences[i]!.text.length + (chosen.length > 0 ? 2 : 0);
    if (used + cost > maxChars) {
      if (leadOnly) break;
      continue;
    }
    chosen.push(i);
    used += cost;
  }
  // Even the best sentence alone is longer than the bound: give as much of it as fits.
  if (chosen.length === 0) return clip(sentences[order[0]!]!.text, maxChars);
  chosen.sort((a, b) => a - b);
  let out = '';
  for (const [k, i] of chosen.entries()) {
    const s = sentences[i]!;
    if (k > 0) out += sentences[chosen[k - 1]!]!.paragraph === s.paragraph ? ' ' : '\n\n';
    out += s.text;
  }
  return out;
}
