import type { LlmSettings, SearchSettings } from '../config.ts';
import type { SearchProviderName } from '../settings/index.ts';
import { BING_SERP } from './bing.ts';
import { braveProvider } from './brave.ts';
import { chatgptProvider } from './chatgpt.ts';
import { notConfigured } from './errors.ts';
import { GOOGLE_SERP, googleCseProvider } from './google.ts';
import { perplexityProvider } from './perplexity.ts';
import { searxngProvider } from './searxng.ts';
import type { SerpFetchers } from './serp-fetch.ts';
import { serpProvider } from './serp-provider.ts';
import type { SearchProvider } from './types.ts';

export { bingNoResults, bingRefusal, decodeBingHref, parseBingSerp } from './bing-serp.ts';
export { collect } from './collect.ts';
export { normaliseDomain } from './domains.ts';
export { SearchProviderError } from './errors.ts';
export { googleNoResults, googleRefusal, parseGoogleSerp } from './google-serp.ts';
export { httpSerpFetcher } from './http-serp-fetcher.ts';
export type { SearchHit } from './types.ts';

export type SearchProviders = Record<SearchProviderName, SearchProvider>;

/** A provider whose key or endpoint is missing: every query fails naming the setting, and costs nothing. */
function unconfigured(name: SearchProviderName, setting: string): SearchProvider {
  return {
    name,
    // biome-ignore lint/correctness/useYield: like every provider it fails on the first page asked for, not when the query is made
    async *pages() {
      throw notConfigured(name, setting);
    },
  };
}

/**
 * Builds every provider from the settings; chatgpt reaches the one LLM endpoint. `fetchers` is how
 * the Google and Bing adapters get their results pages: plain HTTP first, browser-stealth when the
 * provider turns HTTP away.
 */
export function createSearchProviders(
  settings: SearchSettings,
  llm: Pick<LlmSettings, 'baseUrl' | 'apiKey'>,
  deps: { fetchers: SerpFetchers },
): SearchProviders {
  const { fetchers } = deps;
  return {
    google:
      settings.googleCseKey && settings.googleCseCx
        ? googleCseProvider({
            url: settings.googleCseUrl,
            key: settings.googleCseKey,
            cx: settings.googleCseCx,
          })
        : serpProvider(GOOGLE_SERP, { baseUrl: settings.googleUrl, fetchers }),
    bing: serpProvider(BING_SERP, { baseUrl: settings.bingUrl, fetchers }),
    chatgpt: llm.apiKey
      ? chatgptProvider({
          baseUrl: llm.baseUrl,
          apiKey: llm.apiKey,
          model: settings.openaiSearchModel,
        })
      : unconfigured('chatgpt', 'OPENAI_API_KEY'),
    perplexity: settings.perplexityApiKey
      ? perplexityProvider({
          baseUrl: settings.perplexityBaseUrl,
          apiKey: settings.perplexityApiKey,
        })
      : unconfigured('perplexity', 'PERPLEXITY_API_KEY'),
    searxng: settings.searxngUrl
      ? searxngProvider({ baseUrl: settings.searxngUrl })
      : unconfigured('searxng', 'SEARXNG_URL'),
    brave: settings.braveApiKey
      ? braveProvider({ baseUrl: settings.braveBaseUrl, apiKey: settings.braveApiKey })
      : unconfigured('brave', 'BRAVE_API_KEY'),
  };
}
