import { requestJson } from '../upstream/index.ts';
import { withSiteOperators } from './domains.ts';
import type { ProviderQuery, SearchProvider } from './types.ts';

interface SearxngAnswer {
  results?: Array<{ url?: string; title?: string; content?: string }>;
}

/**
 * A SearXNG instance's JSON API (`format=json` must be enabled in its settings), `pageno` to page.
 * SearXNG has no country parameter, so `location` is not passed on.
 */
export function searxngProvider(opts: { baseUrl: string }): SearchProvider {
  return {
    name: 'searxng',
    async *pages(q: ProviderQuery, signal: AbortSignal) {
      for (let pageno = 1; ; pageno++) {
        const url = new URL(`${opts.baseUrl}/search`);
        url.searchParams.set('q', withSiteOperators(q.query, q.includeDomains, q.excludeDomains));
        url.searchParams.set('format', 'json');
        url.searchParams.set('pageno', String(pageno));
        const answer = (await requestJson('searxng', url.href, { signal })) as SearxngAnswer;
        const hits = (answer.results ?? []).map((r) => ({
          url: r.url ?? '',
          title: r.title ?? '',
          description: r.content ?? '',
        }));
        yield hits;
        if (hits.length === 0) return;
      }
    },
  };
}
