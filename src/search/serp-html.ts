import { DOMParser } from 'linkedom';

export function parseDocument(html: string): Document {
  return new DOMParser().parseFromString(html, 'text/html') as unknown as Document;
}

/** Visible text with the whitespace a pretty-printer or a line break put inside it collapsed. */
export function text(el: Element | null | undefined): string {
  return (el?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** An absolute http(s) URL, or undefined for anything a result link cannot be. */
export function httpUrl(raw: string | null | undefined, base?: string): URL | undefined {
  if (!raw) return undefined;
  try {
    const url = new URL(raw.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}
