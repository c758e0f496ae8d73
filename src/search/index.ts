import type { LlmSettings, SearchSettings } from '../config.ts';
import type { EngineName } from '../settings/index.ts';
import { bingSerpEngine } from './bing.ts';
import { braveEngine } from './brave.ts';
import { chatgptEngine } from './chatgpt.ts';
import { notConfigured } from './errors.ts';
import { googleCseEngine, googleSerpEngine } from './google.ts';
import { perplexityEngine } from './perplexity.ts';
import { searxngEngine } from './searxng.ts';
import type { SerpFetchers } from './serp-fetch.ts';
import type { SearchEngine } from './types.ts';

export { bingNoResults, bingRefusal, decodeBingHref, parseBingSerp } from './bing-serp.ts';
export { collect } from './collect.ts';
export { normaliseDomain } from './domains.ts';
export { SearchEngineError } from './errors.ts';
export { googleNoResults, googleRefusal, parseGoogleSerp } from './google-serp.ts';
export { httpPageFetcher } from './page-fetcher.ts';
export type { SearchHit } from './types.ts';

export type SearchEngines = Record<EngineName, SearchEngine>;

/** An engine whose key or endpoint is missing: every query fails naming the setting, and costs nothing. */
function unconfigured(name: EngineName, setting: string): SearchEngine {
  return {
    name,
    // biome-ignore lint/correctness/useYield: like every engine it fails on the first page asked for, not when the query is made
    async *pages() {
      throw notConfigured(name, setting);
    },
  };
}

/**
 * Builds every engine from the settings; chatgpt reaches the one LLM endpoint. `fetchers` is how
 * the Google and Bing adapters get their results pages: plain HTTP first, browser-stealth when the
 * engine turns HTTP away.
 */
export function createSearchEngines(
  settings: SearchSettings,
  llm: Pick<LlmSettings, 'baseUrl' | 'apiKey'>,
  deps: { fetchers: SerpFetchers },
): SearchEngines {
  const { fetchers } = deps;
  return {
    google:
      settings.googleCseKey && settings.googleCseCx
        ? googleCseEngine({
            url: settings.googleCseUrl,
            key: settings.googleCseKey,
            cx: settings.googleCseCx,
          })
        : googleSerpEngine({ baseUrl: settings.googleUrl, fetchers }),
    bing: bingSerpEngine({ baseUrl: settings.bingUrl, fetchers }),
    chatgpt: llm.apiKey
      ? chatgptEngine({
          baseUrl: llm.baseUrl,
          apiKey: llm.apiKey,
          model: settings.openaiSearchModel,
        })
      : unconfigured('chatgpt', 'OPENAI_API_KEY'),
    perplexity: settings.perplexityApiKey
      ? perplexityEngine({ baseUrl: settings.perplexityBaseUrl, apiKey: settings.perplexityApiKey })
      : unconfigured('perplexity', 'PERPLEXITY_API_KEY'),
    searxng: settings.searxngUrl
      ? searxngEngine({ baseUrl: settings.searxngUrl })
      : unconfigured('searxng', 'SEARXNG_URL'),
    brave: settings.braveApiKey
      ? braveEngine({ baseUrl: settings.braveBaseUrl, apiKey: settings.braveApiKey })
      : unconfigured('brave', 'BRAVE_API_KEY'),
  };
}
