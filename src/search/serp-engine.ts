import type { EngineName } from '../settings/index.ts';
import { withSiteOperators } from './domains.ts';
import { engineFailed, refused, unreadable } from './errors.ts';
import { fetchSerp, type SerpFetchers } from './serp-fetch.ts';
import type { EngineQuery, SearchEngine, SearchHit, SerpPage } from './types.ts';

const PAGE_SIZE = 10;

/** What sets one engine's results pages apart from another's: how to ask for a page, how to read one. */
export interface SerpDialect {
  name: EngineName;
  /** The paging and country parameters of the page from result `offset` on; undefined ones are left out. */
  params(offset: number, location: string | undefined): Record<string, string | undefined>;
  parse(html: string, pageUrl: string): SearchHit[];
  refusal(page: SerpPage, hits: SearchHit[]): string | undefined;
  noResults(html: string, pageUrl: string): boolean;
}

/** A search engine read from its results pages at `baseUrl`/search, ten results a page. */
export function serpEngine(
  dialect: SerpDialect,
  opts: { baseUrl: string; fetchers: SerpFetchers },
): SearchEngine {
  const { name } = dialect;
  return {
    name,
    async *pages(q: EngineQuery, signal: AbortSignal) {
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
          throw engineFailed(name, `the results page answered HTTP ${page.statusCode}`);
        // Only the first page can be misread silently: an empty page after results is the end of them.
        if (hits.length === 0 && offset === 0 && !dialect.noResults(page.html, page.url))
          throw unreadable(name);
        yield hits;
        if (hits.length === 0) return;
      }
    },
  };
}
