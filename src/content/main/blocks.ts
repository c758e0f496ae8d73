/**
 * Splits a page into text blocks and describes each one with the numbers the block classifier
 * reads. A block is the nearest non-inline element around a run of text: a paragraph, a list
 * item, a heading, a table cell, a div holding bare text. Its features are what the block is
 * (tag, length, links, punctuation), where it sits (inside nav/header/footer/aside/main, the
 * class and id words of its ancestors, depth, position), how often its shape repeats beside it
 * (cards, posts, rows) and what the page as a whole looks like.
 */

import { wordCount } from '../dom/index.ts';
import { NAME_GROUPS, nameReader } from './block-names.ts';
import { spaced, textCounts } from './block-text.ts';
import { BlockTokens, idAndClass } from './block-tokens.ts';
import { containerScores } from './container-score.ts';
import { isLabelValueCell } from './label-value-rows.ts';
import type { DeclaredTypes } from './page-type.ts';
import { Repeats } from './repeats.ts';

/** Elements that do not start a block of their own: their text belongs to the block around them. */
const INLINE = new Set([
  'A',
  'ABBR',
  'B',
  'BDI',
  'BDO',
  'CITE',
  'CODE',
  'DATA',
  'DFN',
  'EM',
  'FONT',
  'I',
  'KBD',
  'LABEL',
  'MARK',
  'Q',
  'S',
  'SAMP',
  'SMALL',
  'SPAN',
  'STRONG',
  'SUB',
  'SUP',
  'TIME',
  'U',
  'VAR',
  'WBR',
  'BR',
  'IMG',
  'PICTURE',
  'SOURCE',
  'DEL',
  'INS',
  'STRIKE',
  'TT',
  'BIG',
  'NOBR',
]);

/** Never text a reader sees. */
const SKIP = new Set([
  // A frame left by the boilerplate pass is a player; what its tag holds shows only without frames.
  'IFRAME',
  'SCRIPT',
  'STYLE',
  'NOSCRIPT',
  'TEMPLATE',
  'SVG',
  'HEAD',
  'TITLE',
  'META',
  'LINK',
]);

/** The block's own tag, one feature each; anything else falls in "other". */
const TAG_GROUPS: Array<[string, RegExp]> = [
  ['p', /^P$/],
  ['li', /^LI$/],
  ['h1', /^H1$/],
  ['h', /^H[2-6]$/],
  ['cell', /^T[DH]$/],
  ['pre', /^PRE$/],
  ['quote', /^BLOCKQUOTE$/],
  ['dl', /^D[DT]$/],
  ['caption', /^(?:FIGCAPTION|CAPTION)$/],
  ['div', /^(?:DIV|SECTION|ARTICLE|MAIN)$/],
];

/** Ancestor tags and landmark roles that say where a block sits, one bit each. */
const PLACES = [
  'nav',
  'header',
  'footer',
  'aside',
  'main',
  'article',
  'form',
  'list',
  'table',
  'link',
] as const;
const PLACE_OF_TAG: Record<string, number> = {
  NAV: 0,
  HEADER: 1,
  FOOTER: 2,
  ASIDE: 3,
  MAIN: 4,
  ARTICLE: 5,
  FORM: 6,
  UL: 7,
  OL: 7,
  TABLE: 8,
  A: 9,
};
const PLACE_OF_ROLE: Record<string, number> = {
  navigation: 0,
  banner: 1,
  contentinfo: 2,
  complementary: 3,
  main: 4,
};

interface Context {
  places: number;
  names: number;
  depth: number;
  quoted: boolean;
  viewport: boolean;
  comment: boolean;
}

export interface Block {
  element: Element;
  /** The element's tag, for the rules after the pick, which read blocks without their elements. */
  tag: string;
  text: string;
  /** Words in its text (`wordCount`). */
  words: number;
  linkChars: number;
  /** Features that only need the block and its ancestors; page-level ones are added later. */
  own: number[];
  /** The hashed words its markup is named with and, when short, its own (`block-tokens.ts`). */
  tokens: number[];
  /**
   * Ids of the block's parent, grandparent and great-grandparent elements, shared by the blocks
   * under the same element, of the run of repeated items it sits in and of its markup signature
   * (repeats.ts): the classifier's second stage reads how their neighbours scored.
   */
  groups: number[];
  /**
   * Shared by the blocks of one item of a run of repeated siblings (a card, a post: `repeats.ts`),
   * -1 when the block is in no run; a block that is an item itself (a paragraph among paragraphs)
   * has an id of its own.
   */
  item: number;
  /** How many blocks of the page, this one included, print its text (see "copies" in `collectBlocks`). */
  copies: number;
  /** The id of the table (or table section) whose label-value row the block is a cell of, or -1 (see `keptBlocks`). */
  specTable: number;
  /**
   * Inside a `<blockquote>` or markup named as citing (`block-names.ts`): a forum reply's quote or
   * preview of an earlier post (see `repeated-text.ts`).
   */
  quoted: boolean;
  /** Inside markup shown at one screen size only: one of a phone's and a desktop's copies (`repeated-text.ts`). */
  viewport: boolean;
  /**
   * Inside a comment thread or, on a product page, its reviews (`block-names.ts`), which are main
   * content only when asked for (`comments.ts`).
   */
  comment: boolean;
}

/** What the pick and the routing count of a block, without its element (`pickBlocks`). */
export type BlockFacts = Pick<
  Block,
  'text' | 'tag' | 'linkChars' | 'item' | 'copies' | 'specTable' | 'quoted' | 'viewport' | 'comment'
>;

export const BLOCK_ATTR = 'data-webdata-block';

function placeBits(el: Element, tagName: string): number {
  const tag = PLACE_OF_TAG[tagName];
  const role = el.getAttribute('role');
  const byRole = role ? PLACE_OF_ROLE[role] : undefined;
  return (tag === undefined ? 0 : 1 << tag) | (byRole === undefined ? 0 : 1 << byRole);
}

const tagFeaturesOf = new Map<string, number[]>();

/** The tag-group features of a tag, worked out once per tag: a page's blocks have a few tags between them. */
function tagFeatures(tag: string): number[] {
  let features = tagFeaturesOf.get(tag);
  if (!features) {
    features = TAG_GROUPS.map(([, re]) => (re.test(tag) ? 1 : 0));
    tagFeaturesOf.set(tag, features);
  }
  return features;
}

/** Where "in the best container" sits in a block's own features. */
const IN_TOP = 8;

/**
 * Walks the tree once, carrying where it is as bit sets, and marks each block's element with its
 * index so the blocks can be found again in a copy of the document. `reviewsAreComments`, on a
 * page that declares a product, counts its customers' reviews as a comment thread.
 */
export function collectBlocks(root: Element, reviewsAreComments = false): Block[] {
  const blocks: Block[] = [];
  const byElement = new Map<Element, Block>();
  const contexts = new Map<Element, Context>();

  const namesRead = nameReader();
  // Siblings walked rather than `childNodes` (an array linkedom builds on each read), and each
  // element's tag read once (linkedom upper-cases its name anew on every read of `tagName`).
  const visit = (el: Element, owner: Element, ctx: Context, inLink: boolean): void => {
    for (let child = el.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3) {
        const data = (child as Text).data;
        if (!data.trim()) continue;
        let block = byElement.get(owner);
        if (!block) {
          block = {
            element: owner,
            tag: owner.tagName,
            text: '',
            words: 0,
            linkChars: 0,
            own: [],
            tokens: [],
            groups: [],
            item: -1,
            copies: 1,
            specTable: -1,
            quoted: ctx.quoted,
            viewport: ctx.viewport,
            comment: ctx.comment,
          };
          byElement.set(owner, block);
          contexts.set(owner, ctx);
          blocks.push(block);
        }
        block.text += data;
        if (inLink) block.linkChars += data.trim().length;
      } else if (child.nodeType === 1) {
        const c = child as Element;
        const tag = c.tagName;
        if (SKIP.has(tag)) continue;
        const names = namesRead(idAndClass(c));
        const next: Context = {
          places: ctx.places | placeBits(c, tag),
          names: ctx.names | names.bits,
          depth: ctx.depth + 1,
          quoted: ctx.quoted || tag === 'BLOCKQUOTE' || names.citing,
          viewport: ctx.viewport || names.viewport,
          comment: ctx.comment || names.thread || (reviewsAreComments && names.reviews),
        };
        visit(c, INLINE.has(tag) ? owner : c, next, inLink || tag === 'A');
      }
    }
  };
  visit(
    root,
    root,
    {
      places: 0,
      names: 0,
      depth: 0,
      quoted: false,
      viewport: false,
      comment: false,
    },
    false,
  );

  const groupIds = new Map<Element, number>();
  const groupOf = (el: Element | null | undefined) => {
    if (!el) return -1;
    let id = groupIds.get(el);
    if (id === undefined) {
      id = groupIds.size;
      groupIds.set(el, id);
    }
    return id;
  };
  for (const block of blocks) block.text = spaced(block.text);
  // A line printed on every post or card (a name, a date, "Reply"): how many copies the page
  // prints and which copy this is, so the classifier can keep a line as often as it is content
  // rather than every copy or none (the labels count copies the same way, train-lib.ts).
  const copies = new Map<string, number>();
  const copyIndex = blocks.map((block) => {
    const before = copies.get(block.text) ?? 0;
    copies.set(block.text, before + 1);
    return before;
  });
  // Ids of their own, apart from `groupIds`: numbering them there would renumber the groups.
  const itemIds = new Map<Element, number>();
  const containers = containerScores(blocks);
  const repeats = new Repeats((el) => containers.chars.get(el) ?? 0);
  const tokens = new BlockTokens();
  blocks.forEach((block, i) => {
    const ctx = contexts.get(block.element)!;
    block.element.setAttribute(BLOCK_ATTR, String(i));
    block.copies = copies.get(block.text)!;
    const parent = block.element.parentElement;
    const grand = parent?.parentElement;
    const item = repeats.item(block.element);
    block.groups = [
      groupOf(parent),
      groupOf(grand),
      groupOf(grand?.parentElement),
      item.id,
      repeats.signature(block.element),
    ];
    if (item.element) {
      block.item = itemIds.get(item.element) ?? itemIds.size;
      itemIds.set(item.element, block.item);
    }
    const words = wordCount(block.text);
    block.words = words;
    block.tokens = tokens.of(block.element, block.text);
    if (isLabelValueCell(block.element, words)) block.specTable = groupOf(grand);
    const chars = block.text.length || 1;
    const counts = textCounts(block.text);
    const own = [
      Math.log1p(words),
      block.linkChars / chars,
      counts.sentenceEnds / (words || 1),
      counts.clauseMarks / (words || 1),
      counts.digits / chars,
      /[.!?:"”)]$/.test(block.text) ? 1 : 0,
      Math.log1p(repeats.siblings(block.element)),
      Math.min(ctx.depth, 40) / 40,
      containers.inTop[i]!,
      containers.ratio[i]!,
      containers.topShare,
    ];
    // Pushed in turn: spreading three mapped arrays made four arrays a block to copy.
    for (const v of tagFeatures(block.tag)) own.push(v);
    for (let b = 0; b < PLACES.length; b++) own.push((ctx.places >> b) & 1);
    for (let b = 0; b < NAME_GROUPS.length; b++) own.push((ctx.names >> b) & 1);
    own.push(
      Math.log1p(item.count),
      item.share,
      item.depth,
      Math.log1p(block.copies - 1),
      Math.min(copyIndex[i]!, 10) / 10,
    );
    block.own = own;
  });
  return blocks;
}

/** What the page as a whole looks like. */
export interface PageSignals {
  declared: DeclaredTypes;
  /** Words on the page, all blocks. */
  totalWords: number;
}

/**
 * Every block's full feature vector: its own features, its position, the page-level signals,
 * and the products of the lot with "in the best container", so a linear model can trust that
 * container on one kind of page and not on another.
 */
export function featureVectors(blocks: Block[], page: PageSignals): number[][] {
  const pageFeatures = [
    page.declared.article ? 1 : 0,
    page.declared.product ? 1 : 0,
    page.declared.forum ? 1 : 0,
    page.declared.listing ? 1 : 0,
    page.declared.service ? 1 : 0,
    Math.log1p(page.totalWords) / 10,
  ];
  const n = blocks.length || 1;
  // Distance from the best container, in blocks: content often runs on just outside it.
  const first = blocks.findIndex((b) => b.own[IN_TOP]);
  const last = blocks.findLastIndex((b) => b.own[IN_TOP]);
  return blocks.map((block, i) => {
    const inTop = block.own[IN_TOP]!;
    const before = first >= 0 && i < first ? Math.min(1, (first - i) / 20) : 0;
    const after = last >= 0 && i > last ? Math.min(1, (i - last) / 20) : 0;
    const base = block.own.slice();
    base.push(i / n, before, after, ...pageFeatures);
    // The products pushed onto the base: spreading both into a new array made and copied three
    // arrays a block.
    for (let k = 0, size = base.length; k < size; k++) base.push(base[k]! * inTop);
    return base;
  });
}
