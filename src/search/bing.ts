import { bingNoResults, bingRefusal, parseBingSerp } from './bing-serp.ts';
import { withSiteOperators } from './domains.ts';
import { engineFailed, refused, unreadable } from './errors.ts';
import { fetchSerp, type SerpFetchers } from './serp-fetch.ts';
import type { EngineQuery, SearchEngine } from './types.ts';

const PAGE_SIZE = 10;

/** Bing's results page, `cc` for the country and `first` (1-based) to page. */
export function bingSerpEngine(opts: { baseUrl: string; fetchers: SerpFetchers }): SearchEngine {
  return {
    name: 'bing',
    async *pages(q: EngineQuery, signal: AbortSignal) {
      for (let first = 1; ; first += PAGE_SIZE) {
        const url = new URL('/search', opts.baseUrl);
        url.searchParams.set('q', withSiteOperators(q.query, q.includeDomains, q.excludeDomains));
        if (first > 1) url.searchParams.set('first', String(first));
        if (q.location) url.searchParams.set('cc', q.location);
        const { page, hits, refusal } = await fetchSerp(opts.fetchers, url.href, signal, (p) => {
          const parsed = parseBingSerp(p.html, p.url);
          return { hits: parsed, refusal: bingRefusal(p, parsed) };
        });
        if (refusal) throw refused('bing', refusal);
        if (page.statusCode >= 400)
          throw engineFailed('bing', `the results page answered HTTP ${page.statusCode}`);
        // Only the first page can be misread silently: an empty page after results is the end of them.
        if (hits.length === 0 && first === 1 && !bingNoResults(page.html, page.url))
          throw unreadable('bing');
        yield hits;
        if (hits.length === 0) return;
      }
    },
  };
}
