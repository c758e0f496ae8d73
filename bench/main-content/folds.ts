/**
 * The folds of the held-out figures. Pages are grouped by site, so that no site has pages on both
 * sides of a fold: a classifier that has seen a site's template reads that site's other pages far
 * better than a new site's, and new sites are what the shipped model meets. Cutting by page order,
 * as the figures were first cut, put pages of one site in the training and the test folds at once.
 */
import { parse } from 'tldts';
import type { Page } from './data.ts';

export const FOLDS = 5;

/** `site`: the honest split; `page`: the old cut by page order, kept to report the figure both ways. */
export type FoldBy = 'site' | 'page';

/**
 * A page's site: the registrable domain of its URL (`news.example.co.uk` is `example.co.uk`), its
 * host when it has none (an address), or, without a URL, the page alone. Only the ICANN suffixes
 * count, not the private ones of hosting platforms: `a.blogspot.com` and `b.blogspot.com` (or two
 * Substack newsletters) share one template, which is what a fold must not share.
 */
export function siteOf(page: Pick<Page, 'url' | 'id' | 'set'>): string {
  const url = page.url ? parse(page.url) : undefined;
  return url?.domain ?? url?.hostname ?? `${page.set}:${page.id}`;
}

/** 32-bit FNV-1a: a site's fold must not depend on which other pages are loaded. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/**
 * Per page, its fold. By site the fold is a hash of the site, so it is the same in every run and
 * in every selection of pages (train.ts on both sets, run.ts on WCXB alone, a `--limit` sample).
 */
export function foldsOf(
  pages: ReadonlyArray<Pick<Page, 'url' | 'id' | 'set'>>,
  by: FoldBy = 'site',
): number[] {
  return pages.map((p, i) => (by === 'page' ? i : hash(siteOf(p))) % FOLDS);
}
