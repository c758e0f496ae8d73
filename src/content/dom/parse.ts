import { DOMParser } from 'linkedom';
import { parseWithinDepth } from './depth.ts';
import { firstTag, metadataTags } from './metadata-tags.ts';
import { completeStreamedParts } from './streamed.ts';

/**
 * One parse per page: the same document feeds metadata, links, main-content selection and
 * markdown. linkedom was measured against jsdom: Readability reads the same F1 on the
 * article-extraction pages on both, linkedom in about a sixth of the time.
 */
export function parseHtml(html: string): Document {
  const doc = parseWithinDepth(
    tokenizeAsBrowsers(html),
    (markup) =>
      new DOMParser().parseFromString(withRoot(markup), 'text/html') as unknown as Document,
  );
  adoptStrayNodes(doc);
  if (STREAMED_PART.test(html)) completeStreamedParts(doc);
  return doc;
}

/** A React streamed part's id (streamed.ts); most pages have none, and a scan of the text is cheaper than a query of the tree. */
const STREAMED_PART = /\bid="?S:[0-9a-f]/;

/** What may come before `<html>` without starting the document: white space, comments, a doctype. */
const PROLOGUE = /^(?:\s+|<!--[\s\S]*?-->|<!doctype[^>]*>)*/i;

/**
 * linkedom makes the first element of a page the document element and drops its siblings: a page
 * without an <html> tag (`<h1>T</h1><p>text</p>` keeps only the heading), or one with markup before
 * it (a plugin's `<style>` printed ahead of the doctype kept that element and lost the whole page).
 * Browsers accept both, and small sites and generated pages serve both: give the first the root it
 * leaves out, and move what comes before the root of the second inside it, where `adoptStrayNodes`
 * puts it in the head or the body as a browser would.
 */
function withRoot(html: string): string {
  const root = /<html[\s>]/i.exec(html);
  if (!root) return `${html.replace(/^(\s*<!doctype[^>]*>)?/i, '$1<html>')}</html>`;
  const lead = PROLOGUE.exec(html)![0].length;
  const rootTagEnd = html.indexOf('>', root.index) + 1;
  if (root.index <= lead || rootTagEnd === 0) return html;
  const before = html.slice(lead, root.index).replace(/<!doctype[^>]*>/gi, '');
  return html.slice(0, lead) + html.slice(root.index, rootTagEnd) + before + html.slice(rootTagEnd);
}

/** Elements whose text is not markup to a browser, and foreign content, where CDATA sections are real. */
const OPAQUE = 'script|style|textarea|title|xmp|iframe|noembed|noframes|svg|math';

/** A comment, a stray `<![CDATA[`, an end tag of the body or the page, or the start tag of an opaque element. */
const MISREAD = new RegExp(`<!--|<!\\[CDATA\\[|<\\/(?:body|html)\\s*>|<(${OPAQUE})\\b[^>]*>`, 'gi');

/**
 * htmlparser2, under linkedom, reads `<![CDATA[` in HTML content as a CDATA section running to
 * `]]>`, or to the end of the page when none follows (a forum page with one stray `<![CDATA[`
 * before its posts lost every post), and closes every open element at `</body>` or `</html>` (a
 * template that closed the page halfway cut the article there and left the rest outside the body).
 * A browser ends such a `<![CDATA[` at the next `>` as a bogus comment, and its `</body>` and
 * `</html>` close nothing: what follows goes on where it stood. So the first goes up to its `>`,
 * and the end tags go when anything follows them; comments, script and style text and the like,
 * and SVG and MathML are stepped over. One pass, each end searched for once: a regular expression
 * matching each opaque element to its end tag scanned the rest of the page for every `<svg/>` icon
 * (5,000 of them took a second).
 */
function tokenizeAsBrowsers(html: string): string {
  const cdata = html.includes('<![CDATA[');
  const close = /<\/(?:body|html)\s*>/i.exec(html);
  const tagAfter = /<[a-z]/gi;
  tagAfter.lastIndex = close ? close.index + close[0].length : 0;
  const closedEarly = close !== null && tagAfter.test(html);
  if (!cdata && !closedEarly) return html;
  const kept: string[] = [];
  let copied = 0;
  const cut = (from: number, to: number) => {
    kept.push(html.slice(copied, from));
    copied = to;
  };
  const ends = new Map<string, RegExp>();
  /** Opaque elements with no end tag after some point, so none after any later point either. */
  const unended = new Set<string>();
  const at = new RegExp(MISREAD);
  for (let m = at.exec(html); m; m = at.exec(html)) {
    const token = m[0];
    const name = m[1]?.toLowerCase();
    if (token === '<!--') {
      const end = html.indexOf('-->', at.lastIndex);
      at.lastIndex = end < 0 ? html.length : end + 3;
    } else if (name) {
      const foreign = name === 'svg' || name === 'math';
      if (foreign && token.endsWith('/>')) continue;
      const end = ends.get(name) ?? new RegExp(`</${name}\\s*>`, 'gi');
      ends.set(name, end);
      end.lastIndex = at.lastIndex;
      if (!unended.has(name) && end.test(html)) at.lastIndex = end.lastIndex;
      else {
        unended.add(name);
        // Unended script or style text runs to the end of the page; an unended <svg> is markup.
        if (!foreign) at.lastIndex = html.length;
      }
    } else if (token.startsWith('<![')) {
      const end = html.indexOf('>', at.lastIndex);
      cut(m.index, end < 0 ? html.length : end + 1);
      at.lastIndex = copied;
    } else if (closedEarly) cut(m.index, at.lastIndex);
  }
  kept.push(html.slice(copied));
  return kept.join('');
}

/** Elements a browser puts in <head> when they come before any body content. */
const HEAD_ELEMENTS = new Set(['TITLE', 'META', 'LINK', 'BASE', 'STYLE']);

/**
 * linkedom keeps elements it meets outside <body> (markup after </body>, or a page with no
 * <body> tag at all) as children of <html>, where `doc.body` does not see them. Browsers move
 * them into the body, in document order, except leading title/meta/link/base/style, which go to
 * the head; so do we.
 */
function adoptStrayNodes(doc: Document): void {
  const root = doc.documentElement;
  if (!root) return;
  const stray = [...root.childNodes].filter(
    (n) =>
      n.nodeName !== 'HEAD' &&
      n.nodeName !== 'BODY' &&
      (n.nodeType === 1 || (n.nodeType === 3 && n.textContent!.trim())),
  );
  if (!stray.length) return;
  let body = [...root.children].find((c) => c.tagName === 'BODY');
  if (!body) {
    body = doc.createElement('body');
    root.appendChild(body);
  }
  const anchor = body.firstChild;
  let inHead = true;
  for (const node of stray) {
    inHead &&= node.nodeType === 1 && HEAD_ELEMENTS.has(node.nodeName);
    if (inHead) {
      let head = [...root.children].find((c) => c.tagName === 'HEAD');
      if (!head) {
        head = doc.createElement('head');
        root.insertBefore(head, root.firstChild);
      }
      head.appendChild(node);
      continue;
    }
    // Nodes before the body go ahead of its original content, in their own order.
    if (body.compareDocumentPosition(node) & 4) body.appendChild(node);
    else body.insertBefore(node, anchor);
  }
}

/**
 * Base URL for resolving relative references: the document's <base href>, else the page URL.
 * `tags` are the document's `metadataTags`, for a caller that reads its metadata too.
 */
export function documentBase(
  doc: Document,
  pageUrl: string,
  tags: readonly Element[] = metadataTags(doc.querySelectorAll('*')),
): string {
  const href = firstTag(tags, 'base')?.getAttribute('href');
  if (!href) return pageUrl;
  try {
    return new URL(href, pageUrl).href;
  } catch {
    return pageUrl;
  }
}

export function absoluteUrl(ref: string | null | undefined, base: string): string | undefined {
  if (!ref) return undefined;
  const trimmed = ref.trim();
  if (!trimmed || trimmed.startsWith('#') || /^(javascript|mailto|tel|data):/i.test(trimmed))
    return undefined;
  try {
    return new URL(trimmed, base).href;
  } catch {
    return undefined;
  }
}
