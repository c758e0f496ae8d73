/**
 * The words a block's markup is named with, hashed: the class and id names of the block and of
 * the three elements above it (whole, and split into their words), their tags, and a short
 * block's own words. Site builders and forum, shop and documentation software name their parts
 * the same way on every site they serve (`crawler-post`, `product__description`, `wp-caption`),
 * and short lines say what they are (`Reply`, `Add to cart`, `All rights reserved`); the
 * hand-made name groups of `blocks.ts` see only the commonest of these. The classifier's first
 * stage learns a weight per hashed word (`block-model.ts`). Hashed, not listed, so that the model
 * file holds a fixed table, whatever words the training pages used.
 */

/**
 * Buckets of the hashing. The data sets' blocks carry about 221,000 distinct words (66,000 on two
 * pages or more), so words share buckets; a vocabulary of the 22,000 found on five training pages
 * or more, sharing nothing, measured no better held out (WCXB 0.865, article-extraction 0.938,
 * against 0.866 and 0.943 hashed).
 */
export const TOKEN_BUCKETS = 1 << 14;

/** Above this many words a block is prose, whose words say what it is about, not what it is. */
const SHORT_BLOCK_WORDS = 12;

/** Levels of the tree read, the block's own element first. */
const LEVELS = 4;

/** FNV-1a's state after `token`, from state `h`: fast, and the same buckets on every machine. */
function hashOn(h: number, token: string): number {
  for (let i = 0; i < token.length; i++) {
    h ^= token.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h;
}

const FNV_OFFSET = 0x811c9dc5;

function bucket(token: string): number {
  return (hashOn(FNV_OFFSET, token) >>> 0) & (TOKEN_BUCKETS - 1);
}

/** The state after a short block's words' prefix: each word's bucket is `t:word`'s, without the string. */
const WORD_PREFIX = hashOn(FNV_OFFSET, 't:');

const LETTERS = /\p{L}+/gu;

/** Generated names (`css-1x2y3z`, `post-48213`) are one page's, not a convention. */
const GENERATED = /\d{3,}/;

/** An element's id and class names, lower-cased, or '' when it has neither. */
export function idAndClass(el: Element): string {
  const id = el.getAttribute('id');
  const cls = el.getAttribute('class');
  return id || cls ? `${id ?? ''} ${cls ?? ''}`.toLowerCase() : '';
}

/**
 * A page's blocks' hashed words. Blocks share their ancestors, so an element's words and a word's
 * bucket are worked out once per page, not once per block that reads them.
 */
export class BlockTokens {
  private readonly names = new Map<Element, string[]>();
  /** An element's names' buckets as read from a block near it (itself, its parent) and from further down. */
  private readonly near = new Map<Element, number[]>();
  private readonly far = new Map<Element, number[]>();
  /** Per bucket, the number of the last `of` call that took it. */
  private readonly marks = new Int32Array(TOKEN_BUCKETS);
  private calls = 0;

  /** An element's class and id names, whole and split into their words, and its tag. */
  private namesOf(el: Element): string[] {
    let out = this.names.get(el);
    if (!out) {
      out = [];
      for (const name of idAndClass(el).split(/\s+/)) {
        if (!name || GENERATED.test(name)) continue;
        out.push(`:${name}`);
        for (const part of name.split(/[^a-z]+/)) if (part.length > 2) out.push(`p:${part}`);
      }
      out.push(`t:${el.tagName}`);
      this.names.set(el, out);
    }
    return out;
  }

  // Names on the block and its parent describe it; those further up, the region it sits in.
  private bucketsOf(el: Element, near: boolean): number[] {
    const cache = near ? this.near : this.far;
    let out = cache.get(el);
    if (!out) {
      const prefix = near ? 'n' : 'f';
      out = this.namesOf(el).map((name) => bucket(prefix + name));
      cache.set(el, out);
    }
    return out;
  }

  /**
   * The buckets of the levels above a block, read from its parent, each once in the order first
   * met: the blocks under one parent share them.
   */
  private readonly above = new Map<Element, number[]>();

  private bucketsAbove(parent: Element): number[] {
    let out = this.above.get(parent);
    if (!out) {
      const seen = new Set<number>();
      let cur: Element | null = parent;
      for (let level = 1; cur && level < LEVELS; level++, cur = cur.parentElement)
        for (const b of this.bucketsOf(cur, level < 2)) seen.add(b);
      out = [...seen];
      this.above.set(parent, out);
    }
    return out;
  }

  /**
   * The block's hashed words, each once, in the order first met (its own names, those above it,
   * its words): stage one adds their weights in this order.
   */
  of(el: Element, text: string): number[] {
    // Each bucket once: marked with this call's number in a table of every bucket, cheaper than a
    // set made per block.
    const mark = ++this.calls;
    const out: number[] = [];
    const add = (b: number) => {
      if (this.marks[b] === mark) return;
      this.marks[b] = mark;
      out.push(b);
    };
    for (const b of this.bucketsOf(el, true)) add(b);
    const parent = el.parentElement;
    if (parent) for (const b of this.bucketsAbove(parent)) add(b);
    for (const w of shortBlockWords(text))
      add((hashOn(WORD_PREFIX, w) >>> 0) & (TOKEN_BUCKETS - 1));
    return out;
  }
}

/** Characters that hold more than SHORT_BLOCK_WORDS words of any text of ordinary words. */
const SHORT_BLOCK_SPAN = 200;

/**
 * The words of a short block, lower-cased; none for a longer one. Read up to the cut only: most
 * blocks are longer, and none of their words is a token. A long text is lower-cased up to a
 * space past the span first (lower-casing the whole of every paragraph was most of the time
 * spent here): a space ends what any letter before it lower-cases to, so that part reads the same
 * as in the whole text, and when it holds more words than the cut, so does the whole.
 */
function shortBlockWords(text: string): string[] {
  const space = text.length > SHORT_BLOCK_SPAN ? text.indexOf(' ', SHORT_BLOCK_SPAN) : -1;
  if (space > 0 && !wordsUpToCut(text.slice(0, space))) return [];
  return wordsUpToCut(text) ?? [];
}

/** The first SHORT_BLOCK_WORDS words of `text`, lower-cased; undefined when it has more. */
function wordsUpToCut(text: string): string[] | undefined {
  const words: string[] = [];
  for (const [word] of text.toLowerCase().matchAll(LETTERS)) {
    if (words.length === SHORT_BLOCK_WORDS) return undefined;
    words.push(word);
  }
  return words;
}
