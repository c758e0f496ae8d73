/**
 * Which images and videos stay in the main content. The block classifier judges text only; a
 * picture is kept or dropped with the text around it.
 */

import { wordCount } from '../dom/index.ts';
import { BLOCK_ATTR } from './blocks.ts';
import { namesPage, pageTitle } from './page-title.ts';

/** What plays or shows without text; the frames left by boilerplate.ts are embedded players. */
const MEDIA = new Set(['img', 'picture', 'video', 'audio', 'iframe']);
const MEDIA_SELECTOR = [...MEDIA].join(', ');

/** An image URL's file name, which the page's sizes of one picture share (`lead.jpg?w=618`, `lead.jpg?w=1200`). */
export const imageFileName = (url: string | null): string | undefined =>
  url
    ?.replace(/[?#].*/s, '')
    .split('/')
    .pop()
    ?.toLowerCase() || undefined;

/** The figure an element sits in; walked rather than `closest`, which linkedom parses on every call. */
function figureAround(el: Element): Element | undefined {
  for (let up: Element | null = el; up; up = up.parentElement)
    if (up.localName === 'figure') return up;
  return undefined;
}

/** The elements that hold a text block, and those that hold a kept one. */
interface Boxes {
  holding: Set<Element>;
  keeping: Set<Element>;
}

/** Each block marks the elements above it, up to the first one an earlier block marked the same. */
function boxesOf(blocks: readonly Element[], keep: Set<number>): Boxes {
  const boxes: Boxes = { holding: new Set(), keeping: new Set() };
  for (const [i, el] of blocks.entries()) {
    const marks = keep.has(i) ? boxes.keeping : boxes.holding;
    for (let up: Element | null = el; up && !marks.has(up); up = up.parentElement) {
      marks.add(up);
      boxes.holding.add(up);
    }
  }
  return boxes;
}

/**
 * Whether the smallest element around `media` that holds text blocks holds none kept: an author
 * box's portrait, a teaser card's thumbnail, a commenter's avatar sit in a box with their own
 * text, and go with it whatever stands beside the box.
 */
function inDroppedBox(media: Element, boxes: Boxes): boolean {
  for (let up = media.parentElement; up; up = up.parentElement)
    if (boxes.holding.has(up)) return !boxes.keeping.has(up);
  return false;
}

/**
 * The file names of the pictures a page declares as its own (Open Graph, Twitter card), read from
 * the still connected of its elements (`mediaNearKept`) as `meta[property="og:image"],
 * meta[name="twitter:image"]` selects them.
 */
function declaredImages(elements: readonly Element[]): Set<string> {
  const names = new Set<string>();
  for (const el of elements) {
    if (el.localName !== 'meta') continue;
    if (el.getAttribute('property') !== 'og:image' && el.getAttribute('name') !== 'twitter:image')
      continue;
    const name = el.isConnected ? imageFileName(el.getAttribute('content')) : undefined;
    if (name) names.add(name);
  }
  return names;
}

/** Is the image the page's own picture: declared as such, or named for the page (two words or more of its title)? */
function pagePicture(title: string, declared: Set<string>, img: Element): boolean {
  const name = imageFileName(img.getAttribute('src'));
  if (name && declared.has(name)) return true;
  const alt = img.getAttribute('alt') ?? '';
  return wordCount(alt) >= 2 && namesPage(title, alt);
}

/**
 * The images and videos that stay with the kept text. The classifier judges text, not pictures,
 * so a picture goes or stays with the text around it: one between the first and the last kept
 * block stays (an article's figures), and outside that span one stays when the nearest text
 * block before or after it (in reading order; for media inside a block, that block comes first)
 * is kept, or when it is the page's own picture (`pagePicture`: a lead image above the byline, a
 * product's gallery above its title). A sidebar's ad banners, a teaser list's thumbnails and a
 * header's logo go with the text the classifier dropped around them (before, every image in the
 * element the kept text spans stayed: on the 181 article-extraction pages, 910 images beside
 * those of Readability's pick of the article, under 350 since; `bench/main-content/images.ts`). A
 * figure's own text (its caption, credit, a gallery's count) is not what it stands beside: it
 * keeps the figure's media when kept, and when dropped, the text around the figure decides.
 * `elements` are the document's as `selectMainContent` took them: the passes since have taken
 * some away and moved some, and added none.
 */
export function mediaNearKept(
  root: Element,
  keep: Set<number>,
  blocks: readonly Element[],
  elements: readonly Element[],
): Set<Element> {
  const doc = root.ownerDocument;
  // Read when a picture outside the blocks is first met: the walk below changes nothing.
  let declared: Set<string> | undefined;
  let title: string | undefined;
  const isPagePicture = (img: Element) => {
    declared ??= declaredImages(elements);
    title ??= pageTitle(doc);
    return pagePicture(title, declared, img);
  };
  const near = new Set<Element>();
  let before = false;
  let seenKept = false;
  // Media since the last block, and since the last kept block (once one is seen: the span).
  let sinceBlock: Element[] = [];
  let sinceKept: Element[] = [];
  // Read only on pages with a picture after kept text, once.
  let boxes: Boxes | undefined;
  const dropped = (media: Element) => {
    boxes ??= boxesOf(blocks, keep);
    return inDroppedBox(media, boxes);
  };
  for (const el of root.querySelectorAll('*')) {
    const mark = el.getAttribute(BLOCK_ATTR);
    if (mark !== null) {
      const kept = keep.has(Number(mark));
      const figure = figureAround(el);
      if (figure) {
        if (kept) for (const m of figure.querySelectorAll(MEDIA_SELECTOR)) near.add(m);
        continue;
      }
      if (kept) {
        for (const m of [...sinceBlock, ...sinceKept]) near.add(m);
        sinceKept = [];
        seenKept = true;
      }
      sinceBlock = [];
      before = kept;
    } else if (MEDIA.has(el.localName)) {
      if (el.localName === 'img' && isPagePicture(el)) near.add(el);
      else if (before && !dropped(el)) near.add(el);
      else {
        sinceBlock.push(el);
        if (seenKept) sinceKept.push(el);
      }
    }
  }
  return near;
}
