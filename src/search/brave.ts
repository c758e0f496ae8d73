import { requestJson } from '../upstream/index.ts';
import { withSiteOperators } from './domains.ts';
import { parseDocument, text } from './serp-html.ts';
import type { ProviderQuery, SearchProvider } from './types.ts';

/** Brave serves at most 20 results a call; `offset` counts pages of `count`, up to 9. */
const PAGE_SIZE = 20;
const MAX_OFFSET = 9;

interface BraveAnswer {
  web?: { results?: Array<{ url?: string; title?: string; description?: string }> };
  query?: { more_results_available?: boolean };
}

/** Brave marks the matched words with <strong> and escapes entities; the API returns plain text. */
function plain(html: string | undefined): string {
  return html ? text(parseDocument(`<!doctype html><html><body>${html}</body></html>`).body) : '';
}

export function braveProvider(opts: { baseUrl: string; apiKey: string }): SearchProvider {
  return {
    name: 'brave',
    async *pages(q: ProviderQuery, signal: AbortSignal) {
      for (let offset = 0; offset <= MAX_OFFSET; offset++) {
        const url = new URL(`${opts.baseUrl}/res/v1/web/search`);
        url.searchParams.set('q', withSiteOperators(q.query, q.includeDomains, q.excludeDomains));
        url.searchParams.set('count', String(PAGE_SIZE));
        url.searchParams.set('offset', String(offset));
        if (q.location) url.searchParams.set('country', q.location);
        const answer = (await requestJson('brave', url.href, {
          headers: { 'x-subscription-token': opts.apiKey },
          signal,
        })) as BraveAnswer;
        const hits = (answer.web?.results ?? []).map((r) => ({
          url: r.url ?? '',
          title: plain(r.title),
          description: plain(r.description),
        }));
        yield hits;
        if (hits.length === 0 || answer.query?.more_results_available === false) return;
      }
    },
  };
}
