import { requestJson } from '../upstream/index.ts';
import type { ProviderQuery, SearchProvider } from './types.ts';

/** Perplexity's Search API returns at most 20 results per query and has no paging. */
const MAX_RESULTS = 20;
const MAX_DOMAIN_FILTERS = 20;

interface PerplexityAnswer {
  results?: Array<{ title?: string; url?: string; snippet?: string }>;
}

export function perplexityProvider(opts: { baseUrl: string; apiKey: string }): SearchProvider {
  return {
    name: 'perplexity',
    async *pages(q: ProviderQuery, signal: AbortSignal) {
      const filter = [...q.includeDomains, ...q.excludeDomains.map((d) => `-${d}`)].slice(
        0,
        MAX_DOMAIN_FILTERS,
      );
      const body: Record<string, unknown> = {
        query: q.query,
        max_results: Math.min(q.limit, MAX_RESULTS),
      };
      if (q.location) body.country = q.location;
      if (filter.length > 0) body.search_domain_filter = filter;
      const answer = (await requestJson('perplexity', `${opts.baseUrl}/search`, {
        method: 'POST',
        bearer: opts.apiKey,
        body,
        signal,
      })) as PerplexityAnswer;
      yield (answer.results ?? []).map((r) => ({
        url: r.url ?? '',
        title: r.title ?? '',
        description: r.snippet ?? '',
      }));
    },
  };
}
