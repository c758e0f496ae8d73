import { Readability } from '@mozilla/readability';

/**
 * Picks the main content of a page and returns it as an HTML fragment. The document is modified
 * (Readability prunes it), so callers take metadata and links before calling this.
 */
export function selectMainContent(doc: Document): string | undefined {
  const article = new Readability(doc as never, { charThreshold: 200, keepClasses: true }).parse();
  return article?.content ?? undefined;
}
