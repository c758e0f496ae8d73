import { bingNoResults, bingRefusal, parseBingSerp } from './bing-serp.ts';
import type { SerpFetchers } from './serp-fetch.ts';
import { serpProvider } from './serp-provider.ts';
import type { SearchProvider } from './types.ts';

/** Bing's results page, `cc` for the country and `first` (1-based) to page. */
export function bingSerpProvider(opts: {
  baseUrl: string;
  fetchers: SerpFetchers;
}): SearchProvider {
  return serpProvider(
    {
      name: 'bing',
      params: (offset, location) => ({
        first: offset > 0 ? String(offset + 1) : undefined,
        cc: location,
      }),
      parse: parseBingSerp,
      refusal: bingRefusal,
      noResults: bingNoResults,
    },
    opts,
  );
}
