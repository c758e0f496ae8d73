import type { SearchProviderName } from '../settings/index.ts';
import { withSiteOperators } from './domains.ts';
import { providerFailed, refused, unreadable } from './errors.ts';
import { fetchSerp, type SerpFetchers } from './serp-fetch.ts';
import type { ProviderQuery, SearchHit, SearchProvider, SerpPage } from './types.ts';

const PAGE_SIZE = 10;

/** What sets one provider's results pages apart from another's: how to ask for a page, how to read one. */
export interface SerpDialect {
  name: SearchProviderName;
  /** The paging and country parameters of the page from result `offset` on; undefined ones are left out. */
  params(offset: number, location: string | undefined): Record<string, string | undefined>;
  parse(html: string, pageUrl: string): SearchHit[];
  refusal(page: SerpPage, hits: SearchHit[]): string | undefined;
  noResults(html: string, pageUrl: string): boolean;
}

/** A search provider read from its results pages at `baseUrl`/search, ten results a page. */
export function serpProvider(
  dialect: SerpDialect,
  opts: { baseUrl: string; fetchers: SerpFetchers },
): SearchProvider {
  const { name } = dialect;
  return {
    name,
    async *pages(q: ProviderQuery, signal: AbortSignal) {
      for (let offset = 0; ; offset += PAGE_SIZE) {
        const url = new URL('/search', opts.baseUrl);
        url.searchParams.set('q', withSiteOperators(q.query, q.includeDomains, q.excludeDomains));
        for (const [key, value] of Object.entries(dialect.params(offset, q.location)))
          if (value !== undefined) url.searchParams.set(key, value);
        const { page, hits, refusal } = await fetchSerp(opts.fetchers, url.href, signal, (p) => {
          const parsed = dialect.parse(p.html, p.url);
          return { hits: parsed, refusal: dialect.refusal(p, parsed) };
        });
        if (refusal) throw refused(name, refusal);
        if (page.statusCode >= 400)
          throw providerFailed(name, `the results page answered HTTP ${page.statusCode}`);
        // Only the first page can be misread silently: an empty page after results is the end of them.
        if (hits.length === 0 && offset === 0 && !dialect.noResults(page.html, page.url))
          throw unreadable(name);
        yield hits;
        if (hits.length === 0) return;
      }
    },
  };
}
