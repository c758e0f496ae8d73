import { bingNoResults, bingRefusal, parseBingSerp } from './bing-serp.ts';
import { serpEngine } from './serp-engine.ts';
import type { SerpFetchers } from './serp-fetch.ts';
import type { SearchEngine } from './types.ts';

/** Bing's results page, `cc` for the country and `first` (1-based) to page. */
export function bingSerpEngine(opts: { baseUrl: string; fetchers: SerpFetchers }): SearchEngine {
  return serpEngine(
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
