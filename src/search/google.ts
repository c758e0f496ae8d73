import { requestJson } from '../upstream/index.ts';
import { withSiteOperators } from './domains.ts';
import { googleNoResults, googleRefusal, parseGoogleSerp } from './google-serp.ts';
import type { SerpDialect } from './serp-provider.ts';
import type { ProviderQuery, SearchHit, SearchProvider } from './types.ts';

const PAGE_SIZE = 10;

/** Google's results page, `gl` for the country and `start` to page. */
export const GOOGLE_SERP: SerpDialect = {
  name: 'google',
  params: (offset, location) => ({
    start: offset > 0 ? String(offset) : undefined,
    gl: location?.toLowerCase(),
  }),
  parse: parseGoogleSerp,
  refusal: googleRefusal,
  noResults: googleNoResults,
};

interface CseAnswer {
  items?: Array<{ title?: string; link?: string; snippet?: string }>;
  queries?: { nextPage?: unknown[] };
}

/** Google's Custom Search JSON API: at most 10 results a call, `start` (1-based) to page. */
export function googleCseProvider(opts: { url: string; key: string; cx: string }): SearchProvider {
  return {
    name: 'google',
    async *pages(q: ProviderQuery, signal: AbortSignal) {
      // The API serves the first 100 results only: `start` + `num` may not pass 101.
      for (let start = 1; start <= 91; start += PAGE_SIZE) {
        const url = new URL(opts.url);
        url.searchParams.set('key', opts.key);
        url.searchParams.set('cx', opts.cx);
        url.searchParams.set('q', withSiteOperators(q.query, q.includeDomains, q.excludeDomains));
        url.searchParams.set('num', String(PAGE_SIZE));
        url.searchParams.set('start', String(start));
        if (q.location) url.searchParams.set('gl', q.location.toLowerCase());
        const answer = (await requestJson('google', url.href, { signal })) as CseAnswer;
        const hits: SearchHit[] = (answer.items ?? []).map((i) => ({
          url: i.link ?? '',
          title: i.title ?? '',
          description: i.snippet ?? '',
        }));
        yield hits;
        if (hits.length === 0 || !answer.queries?.nextPage?.length) return;
      }
    },
  };
}
