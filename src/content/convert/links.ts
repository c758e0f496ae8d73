import { absoluteUrl } from '../dom/index.ts';

/** Every http(s) link of the document, absolute, without fragments, first occurrence kept. */
export function extractLinks(doc: Document, base: string): string[] {
  const seen = new Set<string>();
  for (const a of doc.querySelectorAll('a[href]')) {
    const href = absoluteUrl(a.getAttribute('href'), base);
    if (!href || !/^https?:/i.test(href)) continue;
    seen.add(href.replace(/#.*$/, ''));
  }
  return [...seen];
}
