import { Readability } from '@mozilla/readability';
import { stripBoilerplate } from './boilerplate.ts';

/** Readability renames h1 to h2; the original level is remembered here and restored after. */
const H1_MARK = 'data-webdata-h1';

/**
 * When Readability's pick holds under half the page's text and under 70% of its paragraph
 * text, on a page that does not declare itself an article, it has most likely picked one block
 * of a page that is not one article (a product page, a listing, a service page). Short news
 * items beside long comment threads pass the first test but not the others. Chosen on the
 * aggregate of both data sets, not on single pages.
 */
const MIN_TEXT_SHARE = 0.5;
const MIN_PARAGRAPH_SHARE = 0.7;

function textLength(node: Node): number {
  return (node.textContent ?? '').replace(/\s+/g, ' ').trim().length;
}

/** The region a page marks as its main one, else its body. */
function pageRegion(doc: Document): Element | null {
  const marked = [...doc.querySelectorAll('main, [role="main"]')];
  if (marked.length === 1) return marked[0]!;
  return doc.body;
}

function paragraphText(root: Element): number {
  let n = 0;
  for (const p of root.querySelectorAll('p')) n += textLength(p);
  return n;
}

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

const ARTICLE_LD = /"@type"\s*:\s*\[?\s*"(?:\w*Article|BlogPosting|Report|Review)"/;

/** Does the page declare itself a single article (Open Graph or schema.org)? */
function declaresArticle(doc: Document): boolean {
  const og = doc.querySelector('meta[property="og:type"]')?.getAttribute('content') ?? '';
  if (/article/i.test(og)) return true;
  for (const s of doc.querySelectorAll('script[type="application/ld+json"]')) if (ARTICLE_LD.test(s.textContent ?? '')) return true;
  return false;
}

/**
 * Picks the main content of a page and returns it as an element of `doc`. The document is
 * pruned on the way, so callers take metadata and links first. `fresh` gives another copy of
 * the page for when Readability's pick is too small and the page's own main region serves better.
 */
export function selectMainContent(doc: Document, fresh: () => Document): Element | undefined {
  const isArticle = declaresArticle(doc);
  stripBoilerplate(doc, { chrome: false });
  const region = pageRegion(doc);
  const pageText = region ? textLength(region) : 0;
  const pageParagraphs = region ? paragraphText(region) : 0;
  for (const h1 of doc.querySelectorAll('h1')) h1.setAttribute(H1_MARK, '');
  let picked: Element | undefined;
  try {
    const article = new Readability(doc as never, { charThreshold: 200, keepClasses: true, serializer: (el: Node) => el as never }).parse();
    picked = (article?.content as unknown as Element | null) ?? undefined;
  } catch {
    // Readability throws on some malformed trees; the page's own main region stands in.
  }
  const pickedText = picked ? textLength(picked) : 0;
  const readabilityMissed = !isArticle && pickedText < MIN_TEXT_SHARE * pageText && (picked ? paragraphText(picked) : 0) < MIN_PARAGRAPH_SHARE * pageParagraphs;
  if (picked && !readabilityMissed) {
    restoreH1(picked);
    return picked;
  }
  const again = fresh();
  stripBoilerplate(again, { chrome: true });
  // The site's masthead, but not an article's own header with its title and byline.
  for (const header of [...again.querySelectorAll('header')]) if (!header.closest('main, article, [role="main"]')) header.remove();
  return pageRegion(again) ?? undefined;
}
