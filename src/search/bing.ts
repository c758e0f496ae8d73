import { bingNoResults, bingRefusal, parseBingSerp } from './bing-serp.ts';
import type { SerpDialect } from './serp-provider.ts';

/** Bing's results page, `cc` for the country and `first` (1-based) to page. */
export const BING_SERP: SerpDialect = {
  name: 'bing',
  params: (offset, location) => ({
    first: offset > 0 ? String(offset + 1) : undefined,
    cc: location,
  }),
  parse: parseBingSerp,
  refusal: bingRefusal,
  noResults: bingNoResults,
};
