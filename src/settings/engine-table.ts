import { ENGINE_NAMES, LLM_APIS, SESSION_BROWSERS } from './choices.ts';
import { bool, choice, int, text, url } from './kinds.ts';
import { MIB, S } from './units.ts';

const MIN = 60 * S;
const HOUR = 60 * MIN;

/** What the service calls out to (search engines, the LLM) and the browsers it runs. */
export const ENGINE_SETTINGS = {
  /** Where each search engine is reached; an engine without its key answers every query with an error naming it. */
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
      options: ENGINE_NAMES,
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
  /** The one LLM endpoint that summaries, extraction and the chatgpt search engine share. */
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
  sessions: {
    defaultBrowser: choice('WEBDATA_DEFAULT_BROWSER', {
      group: 'Remote browser sessions',
      options: SESSION_BROWSERS,
      default: 'chromium',
      doc: 'session engine when a create names none (`chromium` and `firefox` run in this build; `camoufox` runs when `WEBDATA_CAMOUFOX` names its binary; `lightpanda` is refused per request)',
    }),
    idleTimeoutMs: int('WEBDATA_SESSION_IDLE_TIMEOUT_MS', {
      group: 'Remote browser sessions',
      default: 5 * MIN,
      min: 500,
      max: 24 * HOUR,
      doc: 'close a session after this long without CDP or VNC traffic',
    }),
    maxLifetimeMs: int('WEBDATA_SESSION_MAX_LIFETIME_MS', {
      group: 'Remote browser sessions',
      default: HOUR,
      min: S,
      max: 7 * 24 * HOUR,
      doc: 'close a session this long after it was created or resumed',
    }),
    maxSessions: int('WEBDATA_SESSIONS_MAX', {
      group: 'Remote browser sessions',
      default: 8,
      min: 1,
      max: 1_000,
      doc: 'active sessions this instance runs at once (429 beyond)',
    }),
    maxSessionsPerUser: int('WEBDATA_SESSIONS_MAX_PER_USER', {
      group: 'Remote browser sessions',
      default: 3,
      min: 1,
      max: 1_000,
      doc: 'active sessions one user may have on this instance (429 beyond)',
    }),
    warmSpares: int('WEBDATA_SESSION_WARM_SPARES', {
      group: 'Remote browser sessions',
      default: 1,
      min: 0,
      max: 8,
      doc: 'headless browsers of each engine kept launched, once a first session of that engine was made, so a create need not wait for one',
    }),
    fileMaxBytes: int('WEBDATA_SESSION_FILE_MAX_BYTES', {
      group: 'Remote browser sessions',
      default: 100 * MIB,
      min: 1,
      max: 16 * 1024 * MIB,
      doc: 'largest file one upload to a session may put in its files folder (413 beyond)',
    }),
    filesMax: int('WEBDATA_SESSION_FILES_MAX', {
      group: 'Remote browser sessions',
      default: 100,
      min: 1,
      max: 100_000,
      doc: "files a session's folder may hold, uploads and downloads together; an upload beyond is refused with 409",
    }),
    filesQuotaBytes: int('WEBDATA_SESSION_FILES_QUOTA_BYTES', {
      group: 'Remote browser sessions',
      default: 1024 * MIB,
      min: 1,
      max: 1024 * 1024 * MIB,
      doc: "bytes of session files one key may keep, in every session's folder and saved with closed sessions (413 for an upload beyond)",
    }),
    recordingMaxBytes: int('WEBDATA_SESSION_RECORDING_MAX_BYTES', {
      group: 'Remote browser sessions',
      default: 256 * MIB,
      min: 1024,
      max: 64 * 1024 * MIB,
      doc: 'largest recording (rrweb events) one session with `record: true` keeps; later events are left out and the recording marked truncated',
    }),
    recordingRetentionMs: int('WEBDATA_SESSION_RECORDING_RETENTION_MS', {
      group: 'Remote browser sessions',
      default: 7 * 24 * HOUR,
      min: MIN,
      max: 365 * 24 * HOUR,
      doc: 'a session recording is removed once this long has passed since its last event (checked hourly and at start)',
    }),
    replayTokenTtlMs: int('WEBDATA_SESSION_REPLAY_TOKEN_TTL_MS', {
      group: 'Remote browser sessions',
      default: HOUR,
      min: 10 * S,
      max: 7 * 24 * HOUR,
      doc: 'how long the replay token a recording answer returns opens `/replay` and the recording without the API key',
    }),
  },
  /** The two Chromium binaries, shared by the scraping pools and the sessions. */
  chromium: {
    headless: text('WEBDATA_CHROMIUM_HEADLESS', {
      group: 'Browsers',
      default: '/usr/bin/chromium-headless-shell',
      doc: 'headless browser binary: headless sessions and the `browser` scraping pool',
    }),
    visible: text('WEBDATA_CHROMIUM_VISIBLE', {
      group: 'Browsers',
      default: '/usr/bin/chromium',
      doc: 'full browser binary: visible sessions and the `browser-stealth` pool (each run headful under its own Xvfb)',
    }),
  },
  /** Firefox-family binaries for sessions (driven over WebDriver BiDi). */
  firefox: {
    firefox: text('WEBDATA_FIREFOX', {
      group: 'Browsers',
      default: '/usr/bin/firefox-esr',
      doc: 'Firefox binary: sessions with `browser: "firefox"` (Debian\'s `firefox-esr`)',
    }),
    camoufox: text('WEBDATA_CAMOUFOX', {
      group: 'Browsers',
      default: '',
      doc: 'a Camoufox binary; when set, sessions with `browser: "camoufox"` run it as they run Firefox (its own sandbox, policy and egress proxy, WebDriver BiDi); unset, `camoufox` is refused with a 400',
    }),
  },
  browser: {
    poolSize: int('WEBDATA_BROWSER_POOL_SIZE', {
      group: 'Browsers',
      default: 2,
      min: 1,
      max: 32,
      doc: 'headless browsers kept running',
    }),
    firefoxPoolSize: int('WEBDATA_FIREFOX_POOL_SIZE', {
      group: 'Browsers',
      default: 1,
      min: 1,
      max: 8,
      doc: 'Firefox browsers (`WEBDATA_FIREFOX`) kept running for the `browser-firefox` rung once the first is needed',
    }),
    stealthPoolSize: int('WEBDATA_STEALTH_POOL_SIZE', {
      group: 'Browsers',
      default: 1,
      min: 1,
      max: 8,
      doc: 'stealth browsers kept running once the first is needed',
    }),
    maxPages: int('WEBDATA_BROWSER_MAX_PAGES', {
      group: 'Browsers',
      default: 8,
      min: 1,
      max: 256,
      doc: 'pages open at once per pool; further requests queue',
    }),
    pagesPerKey: int('WEBDATA_BROWSER_PAGES_PER_KEY', {
      group: 'Browsers',
      default: (earlier) =>
        Math.max(1, Math.ceil((Number(earlier('WEBDATA_BROWSER_MAX_PAGES')) * 3) / 4)),
      shownDefault: 'three quarters of `WEBDATA_BROWSER_MAX_PAGES`',
      min: 1,
      max: 256,
      doc: 'pages of a pool one API key may hold at once, so the others always find one; waiting keys are served in turn',
    }),
    queueWaitMs: int('WEBDATA_BROWSER_QUEUE_WAIT_MS', {
      group: 'Browsers',
      default: 10 * S,
      min: 0,
      max: 120 * S,
      doc: 'longest a request queues for a page before 429 with `Retry-After`',
    }),
    recycleAfterPages: int('WEBDATA_BROWSER_RECYCLE_PAGES', {
      group: 'Browsers',
      default: 200,
      min: 1,
      max: 100_000,
      doc: 'a browser is replaced after serving this many pages',
    }),
    warm: bool('WEBDATA_BROWSER_WARM', {
      group: 'Browsers',
      default: false,
      doc: 'launch the headless pool at start instead of on first use',
    }),
    maxLoadBytes: int('WEBDATA_BROWSER_MAX_LOAD_BYTES', {
      group: 'Browsers',
      default: 64 * MIB,
      min: 64 * 1024,
      max: 4 * 1024 * MIB,
      doc:
        'bytes one browser page (its context: document, subresources, TLS tunnels) may bring in through the egress proxy; its ' +
        'requests are stopped beyond it. Each plain-HTTP response a browser loads is also cut at `WEBDATA_MAX_PAGE_BYTES`',
    }),
    artifactTtlHours: int('WEBDATA_ARTIFACT_TTL_HOURS', {
      group: 'Browsers',
      default: 24,
      min: 1,
      max: 24 * 365,
      doc: 'screenshots and PDFs are deleted this long after creation',
    }),
  },
};
