import { Readability } from '@mozilla/readability';
import { wordCount, wordsOf } from '../dom/index.ts';
import {
  type BlockInputs,
  type BlockModel,
  classifyBlocks,
  keptBlocks,
  shippedModel,
} from './block-model.ts';
import {
  BLOCK_ATTR,
  type Block,
  type BlockFacts,
  collectBlocks,
  featureVectors,
} from './blocks.ts';
import { stripBoilerplate } from './boilerplate.ts';
import { dropComments, keepComments } from './comments.ts';
import { mediaNearKept } from './kept-media.ts';
import { chooseThreshold } from './page-threshold.ts';
import { namesPage, pageTitle } from './page-title.ts';
import { type DeclaredTypes, declaredTypes } from './page-type.ts';
import { dropRepeatedText } from './repeated-text.ts';
import {
  agreement,
  declaredPickWins,
  doubtsClassifier,
  type KeptSummary,
  readabilityWins,
  readsDeclaredFirst,
} from './route.ts';
import { missingFacts, type ProductFacts, productFacts } from './structured-data.ts';
import { keepUnitsWhole } from './whole-units.ts';

/**
 * The first h1 block that names the page; else the page's only h1 block, unless it stands in the
 * page's header, navigation, footer or an aside (a logo): a page titled "Results" or "Members
 * area" whose one heading reads "Results for limpet" or "Welcome" is headed by it all the same.
 */
function titleHeading(doc: Document, blocks: Block[]): number {
  const title = pageTitle(doc);
  const named = blocks.findIndex((b) => b.element.tagName === 'H1' && namesPage(title, b.text));
  if (named >= 0) return named;
  const h1s = blocks.flatMap((b, i) => (b.element.tagName === 'H1' ? [i] : []));
  return h1s.length === 1 && !blocks[h1s[0]!]!.element.closest('header, nav, footer, aside')
    ? h1s[0]!
    : -1;
}

/**
 * Keeps the title heading, and no other h1 of the same words: a page that prints its title in
 * its header bar and again over the content (a forum's topic) would open the markdown twice.
 */
function keepTitleOnce(blocks: Block[], title: number, keep: Set<number>): void {
  keep.add(title);
  const words = wordsOf(blocks[title]!.text).join(' ');
  for (const i of keep)
    if (
      i !== title &&
      blocks[i]!.element.tagName === 'H1' &&
      wordsOf(blocks[i]!.text).join(' ') === words
    )
      keep.delete(i);
}

/** Readability renames h1 to h2; the original level is remembered here and restored after. */
const H1_MARK = 'data-webdata-h1';

function restoreH1(root: Element): void {
  for (const el of [...root.querySelectorAll(`[${H1_MARK}]`)]) {
    el.removeAttribute(H1_MARK);
    if (el.tagName === 'H1') continue;
    const h1 = el.ownerDocument.createElement('h1');
    for (const attr of [...el.attributes]) h1.setAttribute(attr.name, attr.value);
    h1.append(...el.childNodes);
    el.replaceWith(h1);
  }
}

/**
 * Readability's pick of the article body, read when the route policy doubts the classifier's
 * pick (a menu, nothing, a short pick) or lets a declared article's pick win (route.ts).
 * Readability drops the h1 that repeats the title; it goes back on top, once.
 */
export function readabilityArticle(doc: Document): Element | undefined {
  stripBoilerplate(doc);
  const h1s = [...doc.querySelectorAll('h1')];
  const pageName = pageTitle(doc);
  const title = h1s
    .map((h) => (h.textContent ?? '').replace(/\s+/g, ' ').trim())
    .find((t) => namesPage(pageName, t));
  for (const h1 of h1s) h1.setAttribute(H1_MARK, '');
  let picked: Element | undefined;
  try {
    const article = new Readability(doc as never, {
      charThreshold: 200,
      keepClasses: true,
      serializer: (el: Node) => el as never,
    }).parse();
    picked = (article?.content as unknown as Element | null) ?? undefined;
  } catch {
    // Readability throws on some malformed trees; the block classifier stands in.
  }
  if (!picked) return undefined;
  restoreH1(picked);
  // The classifier may have read this page first and marked its blocks.
  for (const el of picked.querySelectorAll(`[${BLOCK_ATTR}]`)) el.removeAttribute(BLOCK_ATTR);
  if (title && !picked.querySelector('h1')) {
    const h1 = doc.createElement('h1');
    h1.textContent = title;
    picked.insertBefore(h1, picked.firstChild);
  }
  return picked;
}

/** The JSON-LD description and specs of the product the page declares; read before scripts go. */
function declaredProductFacts(doc: Document, declared: DeclaredTypes): ProductFacts {
  return declared.product ? productFacts(doc) : {};
}

/** The page's blocks and, per block, what the classifier reads of them (`BlockInputs`). */
export interface PageAnalysis extends PickInputs {
  blocks: Block[];
  /** Index of the block that is the page's title heading, or -1. */
  title: number;
  /** The JSON-LD description and specs of the product the page declares. */
  productFacts: ProductFacts;
}

/**
 * Everything the block classifier reads about a page. Boilerplate is stripped from the document
 * and its blocks are marked on the way, so callers take metadata and links first. `elements`, when
 * given, are the document's as `selectMainContent` takes them.
 */
export function analysePage(
  doc: Document,
  declared = declaredTypes(doc),
  elements?: readonly Element[],
): PageAnalysis {
  const facts = declaredProductFacts(doc, declared);
  stripBoilerplate(doc, elements);
  const body = doc.body ?? doc.documentElement;
  const blocks = body ? collectBlocks(body, declared.product) : [];
  const counts = blocks.map((b) => b.words);
  const totalWords = counts.reduce((a, b) => a + b, 0);
  const features = featureVectors(blocks, { declared, totalWords });
  return {
    blocks,
    features,
    tokens: blocks.map((b) => b.tokens),
    words: counts,
    groups: blocks.map((b) => b.groups),
    title: titleHeading(doc, blocks),
    declaresArticle: declared.article,
    declaresForum: declared.forum,
    productFacts: facts,
  };
}

/** Has the subtree text a reader would see? */
function hasText(node: Node): boolean {
  return !!node.textContent?.trim();
}

/**
 * Whether an element `prune` found nothing kept in is an image or video beside kept content, or
 * holds one. Prune has already taken the element's text and every child holding no such media,
 * so any element child left holds one. Read from the tree rather than with `matches` and
 * `querySelector`: linkedom parses the selector on every call, a tenth of a page's conversion
 * when asked once per pruned element.
 */
function holdsMedia(el: Element, near: Set<Element>): boolean {
  return near.has(el) || el.firstElementChild !== null;
}

/**
 * Removes from `el` all text that is not in a kept block, and the elements left empty, keeping
 * the structure (lists, tables, headings, figures) around what stays and the images beside it
 * (`near`). Text belongs to the nearest block around it, so what sits in inline elements inside a
 * kept block (a link's bold words, a paragraph wrapped in two spans) stays with it; `inKept`
 * says whether the block around `el` is kept. Returns whether anything kept is inside.
 */
function prune(el: Element, keep: Set<number>, near: Set<Element>, inKept = false): boolean {
  const mark = el.getAttribute(BLOCK_ATTR);
  const kept = mark === null ? inKept : keep.has(Number(mark));
  let any = kept;
  // A video or audio beside the kept text keeps its <source>s: its file, when it has no src.
  const inMedia = near.has(el);
  // Siblings walked, the next one read before a child goes, rather than a copy of `childNodes`
  // made for every element of the page.
  let next: ChildNode | null;
  for (let child = el.firstChild; child; child = next) {
    next = child.nextSibling;
    if (child.nodeType === 1) {
      if (prune(child as Element, keep, near, kept)) any = true;
      else if (!inMedia && !holdsMedia(child as Element, near)) child.remove();
    } else if (child.nodeType === 3 && !kept) {
      child.remove();
    }
  }
  el.removeAttribute(BLOCK_ATTR);
  return any;
}

/** The smallest element that holds all that was kept. */
function narrow(root: Element): Element {
  let cur = root;
  for (;;) {
    const texts = [...cur.childNodes].filter((n) => n.nodeType === 3 && n.textContent!.trim());
    const full = [...cur.children].filter(hasText);
    if (texts.length || full.length !== 1) return cur;
    cur = full[0]!;
  }
}

/** What the classifier's pick reads of a page: its inputs and, per block, what it counts. */
export interface PickInputs extends BlockInputs {
  blocks: readonly BlockFacts[];
  /** Open Graph or JSON-LD says the page is one article. */
  declaresArticle: boolean;
  /** JSON-LD or microdata says the page is a discussion: its replies are its content. */
  declaresForum: boolean;
}

/**
 * Below this many words a page is kept whole: a line or two of text holds nothing to tell content
 * from furniture by, and the classifier's scores there are a coin toss (on a page of two sentences,
 * one nested 2,000 deep, it kept one or the other by a few thousandths of its threshold). 7 of the
 * 1,657 data-set pages are this small, shells whose text a script writes.
 */
const SMALL_PAGE_WORDS = 30;

/** The text of the kept blocks, one block a line: what the routing compares with Readability's pick. */
export const keptText = (blocks: readonly BlockFacts[], keep: readonly boolean[]): string =>
  blocks.flatMap((b, i) => (keep[i] ? [b.text] : [])).join('\n');

/**
 * The blocks kept at `threshold`: those scored at or over it with their table rows, framed code and
 * cards' titles whole, less the copies the page marks as copies; a small page whole. The training
 * reads each candidate threshold of a page (`page-threshold.ts`) through this.
 */
export function keptAt(page: PickInputs, scores: number[], threshold: number): boolean[] {
  const keep = keptBlocks(
    scores,
    threshold,
    page.blocks.map((b) => b.specTable),
  );
  keepUnitsWhole(
    page.blocks,
    page.groups.map((g) => g[0]!),
    page.words,
    keep,
  );
  dropRepeatedText(page.blocks, keep);
  if (page.words.reduce((a, b) => a + b, 0) < SMALL_PAGE_WORDS) keep.fill(true);
  return keep;
}

/** What a caller asks of the main content beyond the page's own. */
export interface MainContentOptions {
  /** Readers' comment threads under a story stay with it (`comments.ts`). */
  includeComments?: boolean;
}

/**
 * The blocks the classifier keeps (the title heading aside) and what they hold, in numbers: those
 * kept (`keptAt`) at the threshold the page's scores choose, without comment threads unless asked
 * for. The training's held-out reading (`bench/main-content/route-cases.ts`) calls this too, so
 * that it scores what the converter keeps by default.
 */
export function pickBlocks(
  model: BlockModel,
  page: PickInputs,
  options: MainContentOptions = {},
): { keep: boolean[]; kept: KeptSummary } {
  const scores = classifyBlocks(model, page);
  const threshold = chooseThreshold(model.pageThreshold, page, scores, model.threshold);
  const keep = keptAt(page, scores, threshold);
  if (!options.includeComments) dropComments(page.blocks, page.words, keep, page.declaresForum);
  const kept: KeptSummary = { words: 0, chars: 0, linkChars: 0 };
  keep.forEach((k, i) => {
    if (!k) return;
    kept.words += page.words[i]!;
    kept.chars += page.blocks[i]!.text.length;
    kept.linkChars += page.blocks[i]!.linkChars;
  });
  return { keep, kept };
}

/**
 * A product's JSON-LD description and specs, added after the title heading (or on top) when the
 * content picked lacks them: on WCXB product pages the description raised the word F1 (it often
 * sits in a tab the saved page does not fill).
 */
function withProductFacts(root: Element, facts: ProductFacts): Element {
  const { description, specs } = missingFacts(root.textContent ?? '', facts);
  const doc = root.ownerDocument;
  let anchor: Element | null = root.querySelector('h1');
  const add = (el: Element) => {
    if (anchor) anchor.after(el);
    else root.insertBefore(el, root.firstChild);
    anchor = el;
  };
  if (description) {
    const p = doc.createElement('p');
    p.textContent = description;
    add(p);
  }
  if (specs) {
    const ul = doc.createElement('ul');
    for (const line of specs) {
      const li = doc.createElement('li');
      li.textContent = line;
      ul.append(li);
    }
    add(ul);
  }
  return root;
}

/**
 * Picks the main content of a page and returns it as an element of `doc` (or of a copy, when
 * Readability reads it): every text block is scored by the block classifier and the ones below
 * its threshold are cut away. The page's title heading stays whatever its score: it says what
 * the page is. When the classifier keeps little but links, nothing, or a short pick, Readability's
 * pick is tried and may win (route.ts). `elements` are the document's, as `querySelectorAll('*')`
 * lists them, for a caller that has walked it and moved nothing since.
 */
export function selectMainContent(
  doc: Document,
  model: BlockModel = shippedModel(),
  options: MainContentOptions = {},
  elements: readonly Element[] = [...doc.querySelectorAll('*')],
): Element | undefined {
  const declared = declaredTypes(doc, elements);
  const declaresArticle = declared.article;
  const readFirst = declaresArticle && readsDeclaredFirst(model.route);
  let article = readFirst ? readabilityArticle(doc.cloneNode(true) as Document) : undefined;
  const articleWords = wordCount(article?.textContent ?? '');
  if (article && declaredPickWins(model.route, declaresArticle, articleWords))
    return withProductFacts(article, declaredProductFacts(doc, declared));
  const page = analysePage(doc, declared, elements);
  const picked = pickBlocks(model, page, options);
  const { kept } = picked;
  if (!readFirst && doubtsClassifier(model.route, declaresArticle, kept))
    article = readabilityArticle(doc.cloneNode(true) as Document);
  if (article) {
    const readings = {
      declaresArticle,
      kept,
      readabilityWords: wordCount(article.textContent ?? ''),
      agreement: agreement(keptText(page.blocks, picked.keep), article.textContent ?? ''),
    };
    if (readabilityWins(model.route, readings)) return withProductFacts(article, page.productFacts);
  }
  const keep = new Set(picked.keep.flatMap((k, i) => (k ? [i] : [])));
  if (page.title >= 0) keepTitleOnce(page.blocks, page.title, keep);
  const body = doc.body ?? doc.documentElement;
  if (!body) return undefined;
  // Pictures go or stay with the story's text: a thread kept after a grid of teasers would
  // otherwise span the teasers' thumbnails, and commenters' avatars say nothing.
  const near = mediaNearKept(
    body,
    keep,
    page.blocks.map((b) => b.element),
    elements,
  );
  if (options.includeComments) for (const i of keepComments(page.blocks, picked.keep)) keep.add(i);
  prune(body, keep, near);
  return withProductFacts(narrow(body), page.productFacts);
}
