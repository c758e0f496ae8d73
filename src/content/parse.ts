import { DOMParser } from 'linkedom';
import { boundDepth } from './depth.ts';

/**
 * One parse per page: the same document feeds metadata, links, main-content selection and
 * markdown. linkedom was measured against jsdom by the data set's authors at the same
 * Readability F1 for about a sixth of the time (see ../shared/data/README.md).
 */
export function parseHtml(html: string): Document {
  const doc = new DOMParser().parseFromString(
    withRoot(boundDepth(html)),
    'text/html',
  ) as unknown as Document;
  adoptStrayNodes(doc);
  return doc;
}

/**
 * linkedom makes the first element of a page without an <html> tag the document element and
 * drops its siblings (`<h1>T</h1><p>text</p>` keeps only the heading). Browsers accept such pages,
 * and small sites and generated pages do serve them, so give them the root they leave out.
 */
function withRoot(html: string): string {
  if (/<html[\s>]/i.test(html)) return html;
  return `${html.replace(/^(\s*<!doctype[^>]*>)?/i, '$1<html>')}</html>`;
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

/** Base URL for resolving relative references: the document's <base href>, else the page URL. */
export function documentBase(doc: Document, pageUrl: string): string {
  const href = doc.querySelector('base[href]')?.getAttribute('href');
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
