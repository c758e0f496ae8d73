import type { FetchPage, SearchHit, SerpPage } from './types.ts';

/** How SERP adapters get their pages: plain HTTP, and a real browser for when HTTP is turned away. */
export interface SerpFetchers {
  plain: FetchPage;
  /** Browser-stealth rendering; absent where no browser is wired (then a refusal is final). */
  stealth?: FetchPage;
}

export interface ReadSerp {
  page: SerpPage;
  hits: SearchHit[];
  refusal?: string;
}

/**
 * Fetches one results page over HTTP; when the provider refuses it (captcha, JavaScript shell,
 * consent wall) and a browser is wired, fetches it once more in browser-stealth, which runs the
 * page's scripts and presents a real browser's fingerprint. Plain HTTP stays first because it is
 * an order of magnitude cheaper and usually enough.
 */
export async function fetchSerp(
  fetchers: SerpFetchers,
  url: string,
  signal: AbortSignal,
  read: (page: SerpPage) => Omit<ReadSerp, 'page'>,
): Promise<ReadSerp> {
  const page = await fetchers.plain(url, signal);
  const first = { page, ...read(page) };
  if (!first.refusal || !fetchers.stealth) return first;
  const rendered = await fetchers.stealth(url, signal);
  const second = read(rendered);
  return {
    page: rendered,
    ...second,
    refusal: second.refusal && `${second.refusal}, also to browser-stealth`,
  };
}
