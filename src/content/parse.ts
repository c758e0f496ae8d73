import { DOMParser } from 'linkedom';

/**
 * One parse per page: the same document feeds metadata, links, main-content selection and
 * markdown. linkedom was measured against jsdom by the data set's authors at the same
 * Readability F1 for about a sixth of the time (see ../shared/data/README.md).
 */
export function parseHtml(html: string): Document {
  const doc = new DOMParser().parseFromString(html, 'text/html') as unknown as Document;
  adoptStrayNodes(doc);
  return doc;
}

/**
 * linkedom keeps elements it meets outside <body> (markup after </body>, or a page with no
 * <body> tag at all) as children of <html>, where `doc.body` does not see them. Browsers move
 * them into the body; so do we, in document order.
 */
function adoptStrayNodes(doc: Document): void {
  const root = doc.documentElement;
  if (!root) return;
  const stray = [...root.childNodes].filter((n) => n.nodeName !== 'HEAD' && n.nodeName !== 'BODY' && (n.nodeType === 1 || (n.nodeType === 3 && n.textContent!.trim())));
  if (!stray.length) return;
  let body = [...root.children].find((c) => c.tagName === 'BODY');
  if (!body) {
    body = doc.createElement('body');
    root.appendChild(body);
  }
  for (const node of stray) {
    const after = body.compareDocumentPosition(node) & 4;
    if (after) body.appendChild(node);
    else body.insertBefore(node, body.firstChild);
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
  if (!trimmed || trimmed.startsWith('#') || /^(javascript|mailto|tel|data):/i.test(trimmed)) return undefined;
  try {
    return new URL(trimmed, base).href;
  } catch {
    return undefined;
  }
}
