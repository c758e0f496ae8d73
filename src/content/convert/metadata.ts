import { absoluteUrl } from '../dom/index.ts';
import type { PageMetadata } from './types.ts';

function meta(doc: Document, selectors: string[]): string {
  for (const selector of selectors) {
    const value = doc.querySelector(selector)?.getAttribute('content')?.trim();
    if (value) return value;
  }
  return '';
}

export function extractMetadata(doc: Document, base: string): PageMetadata {
  const title =
    doc.querySelector('title')?.textContent?.trim() ||
    meta(doc, ['meta[property="og:title"]', 'meta[name="twitter:title"]']) ||
    doc.querySelector('h1')?.textContent?.trim() ||
    '';
  const description = meta(doc, [
    'meta[name="description"]',
    'meta[property="og:description"]',
    'meta[name="twitter:description"]',
  ]);
  const canonicalRef =
    doc.querySelector('link[rel~="canonical"][href]')?.getAttribute('href') ||
    meta(doc, ['meta[property="og:url"]']);
  return {
    title: title.replace(/\s+/g, ' '),
    description: description.replace(/\s+/g, ' '),
    canonicalUrl: absoluteUrl(canonicalRef, base) ?? '',
  };
}
