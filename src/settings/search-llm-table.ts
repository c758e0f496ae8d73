import { LLM_APIS, SEARCH_PROVIDERS } from './choices.ts';
import { bool, choice, int, text, url } from './kinds.ts';
import { S } from './units.ts';

/** What the service calls out to: the search providers, the LLM endpoint and the features built on it. */
export const SEARCH_LLM_SETTINGS = {
  /** Where each search provider is reached; a provider without its key answers every query with an error naming it. */
  search: {
    timeoutMs: int('WEBDATA_SEARCH_TIMEOUT_MS', {
      group: 'Search engines',
      default: 20 * S,
      min: 100,
      max: 300 * S,
      doc: 'deadline of one search query on its engine, all pages together',
    }),
    firecrawlEngine: choice('WEBDATA_FIRECRAWL_SEARCH_ENGINE', {
      group: 'Search engines',
      options: SEARCH_PROVIDERS,
      default: 'google',
      doc: 'engine of the Firecrawl-compatible `/v2/search`, whose requests cannot name one',
    }),
    googleUrl: url('WEBDATA_GOOGLE_URL', {
      group: 'Search engines',
      default: 'https://www.google.com',
      doc: 'origin whose `/search` results page the `google` engine reads',
    }),
    googleCseKey: text('GOOGLE_CSE_KEY', {
      group: 'Search engines',
      default: '',
      doc:
        'with `GOOGLE_CSE_CX` (both or neither): `google` uses the Custom Search JSON API instead of the results page ' +
        '(closes to existing customers 2027-01-01)',
    }),
    googleCseCx: text('GOOGLE_CSE_CX', {
      group: 'Search engines',
      default: '',
      doc: 'the search engine id that goes with `GOOGLE_CSE_KEY`',
    }),
    googleCseUrl: url('WEBDATA_GOOGLE_CSE_URL', {
      group: 'Search engines',
      default: 'https://www.googleapis.com/customsearch/v1',
      doc: 'Custom Search JSON API endpoint',
    }),
    bingUrl: url('WEBDATA_BING_URL', {
      group: 'Search engines',
      default: 'https://www.bing.com',
      doc: 'origin whose `/search` results page the `bing` engine reads',
    }),
    openaiSearchModel: text('OPENAI_SEARCH_MODEL', {
      group: 'Search engines',
      default: 'gpt-5-mini',
      doc: 'model answering `chatgpt` searches (Responses API, needs the `web_search` tool); the endpoint and key are `OPENAI_BASE_URL` and `OPENAI_API_KEY`',
    }),
    perplexityBaseUrl: url('PERPLEXITY_BASE_URL', {
      group: 'Search engines',
      default: 'https://api.perplexity.ai',
      doc: 'Perplexity Search API',
    }),
    perplexityApiKey: text('PERPLEXITY_API_KEY', {
      group: 'Search engines',
      default: '',
      doc: 'key for `perplexity`',
    }),
    searxngUrl: url('SEARXNG_URL', {
      group: 'Search engines',
      default: '',
      doc: 'SearXNG instance for `searxng` (enable `json` in its `search.formats`); empty leaves the engine off',
    }),
    braveBaseUrl: url('BRAVE_BASE_URL', {
      group: 'Search engines',
      default: 'https://api.search.brave.com',
      doc: 'Brave Search API',
    }),
    braveApiKey: text('BRAVE_API_KEY', {
      group: 'Search engines',
      default: '',
      doc: 'key for `brave` (sent as `X-Subscription-Token`)',
    }),
  },
  /** The one LLM endpoint that summaries, extraction and the chatgpt search provider share. */
  llm: {
    baseUrl: url('OPENAI_BASE_URL', {
      group: 'LLM, summaries and extraction',
      default: 'https://api.openai.com/v1',
      doc:
        'OpenAI-compatible API base of the `chatgpt` engine (Responses API) and the LLM endpoint of summaries and extraction; ' +
        'requests go to `{base}/responses`, `{base}/chat/completions` or `{base}/api/chat`',
    }),
    apiKey: text('OPENAI_API_KEY', {
      group: 'LLM, summaries and extraction',
      essential: true,
      default: '',
      doc:
        'key for `chatgpt`, summaries and extraction; without it (and an OpenAI-style `WEBDATA_LLM_API`) `chatgpt` queries fail ' +
        'naming it, summaries are extractive and schema extraction is refused with 400',
    }),
    api: choice('WEBDATA_LLM_API', {
      group: 'LLM, summaries and extraction',
      options: LLM_APIS,
      default: 'responses',
      doc: 'wire format of the LLM endpoint (`ollama`: `$OPENAI_BASE_URL/api/chat`, no key needed)',
    }),
    structuredOutput: bool('WEBDATA_LLM_STRUCTURED_OUTPUT', {
      group: 'LLM, summaries and extraction',
      default: true,
      doc: "send extraction schemas as the provider's JSON Schema response format; `false` writes them into the prompt (for servers that reject `response_format`)",
    }),
  },
  summary: {
    model: text('WEBDATA_SUMMARY_MODEL', {
      group: 'LLM, summaries and extraction',
      default: 'gpt-5-mini',
      doc: 'model writing `summary` answers',
    }),
    maxInputChars: int('WEBDATA_SUMMARY_MAX_INPUT_CHARS', {
      group: 'LLM, summaries and extraction',
      default: 100_000,
      min: 1_000,
      max: 2_000_000,
      doc: 'page markdown sent to the summary model is cut to this many characters',
    }),
    timeoutMs: int('WEBDATA_SUMMARY_TIMEOUT_MS', {
      group: 'LLM, summaries and extraction',
      default: 60 * S,
      min: 100,
      max: 600 * S,
      doc: 'deadline of one summary call; past it the page fails naming the summary',
    }),
    extractiveChars: int('WEBDATA_SUMMARY_EXTRACTIVE_CHARS', {
      group: 'LLM, summaries and extraction',
      default: 1_200,
      min: 200,
      max: 20_000,
      doc: 'longest extractive summary (used when no LLM is configured)',
    }),
  },
  extract: {
    model: text('WEBDATA_EXTRACT_MODEL', {
      group: 'LLM, summaries and extraction',
      default: (earlier) => String(earlier('WEBDATA_SUMMARY_MODEL')),
      shownDefault: 'the summary model',
      doc: 'model filling `extract` schemas',
    }),
    maxInputChars: int('WEBDATA_EXTRACT_MAX_INPUT_CHARS', {
      group: 'LLM, summaries and extraction',
      default: 200_000,
      min: 1_000,
      max: 4_000_000,
      doc: "the extraction model's window for page markdown; longer pages are cut with a `warning`",
    }),
    timeoutMs: int('WEBDATA_EXTRACT_TIMEOUT_MS', {
      group: 'LLM, summaries and extraction',
      default: 120 * S,
      min: 100,
      max: 600 * S,
      doc: 'deadline of one extraction call (the repair round is a second call)',
    }),
    schemaTimeoutMs: int('WEBDATA_EXTRACT_SCHEMA_TIMEOUT_MS', {
      group: 'LLM, summaries and extraction',
      default: 2 * S,
      min: 100,
      max: 60 * S,
      doc: "longest compiling a caller's schema, or checking one answer against it, may hold a schema worker; the worker is ended and the request fails beyond it",
    }),
  },
};
