import { allowedByDomains } from './domains.ts';
import { httpUrl } from './serp-html.ts';
import type { ProviderQuery, SearchHit, SearchProvider } from './types.ts';

/**
 * Pages through a provider until `limit` results are in hand or the provider runs out, keeping only
 * absolute http(s) links inside the domain filters that were not seen before. (The SERP parsers
 * already dropped ads and the provider's own links.)
 */
export async function collect(
  provider: SearchProvider,
  q: ProviderQuery,
  signal: AbortSignal,
): Promise<SearchHit[]> {
  const out: SearchHit[] = [];
  const kept = new Set<string>();
  const seenRaw = new Set<string>();
  // Filters and dedupe can thin a page out, so allow a couple of pages beyond the arithmetic.
  const maxPages = Math.ceil(q.limit / 10) + 2;
  let pages = 0;
  for await (const page of provider.pages(q, signal)) {
    pages++;
    let novel = 0;
    for (const hit of page) {
      if (!seenRaw.has(hit.url)) novel++;
      seenRaw.add(hit.url);
      const url = httpUrl(hit.url);
      if (!url || !allowedByDomains(url, q.includeDomains, q.excludeDomains)) continue;
      // A text fragment (`#:~:text=`) only highlights a passage: the page is the same.
      if (url.hash.startsWith('#:~:')) url.hash = '';
      const key = url.href.replace(/#.*$/, '');
      if (kept.has(key)) continue;
      kept.add(key);
      out.push({ url: url.href, title: tidy(hit.title), description: tidy(hit.description) });
      if (out.length >= q.limit) return out;
    }
    // A provider that repeats itself (some serve their last page again past the end) has run out.
    if (novel === 0 || pages >= maxPages) break;
  }
  return out;
}

function tidy(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}
