import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { parseProxyUrls } from './acquire/geo-proxy.ts';
import { ENGINE_NAMES, type EngineName } from './search/types.ts';

/**
 * Every setting of the service, read and validated once at start-up.
 * Each field names the environment variable it comes from; the README's configuration table
 * mirrors this file.
 */
export interface Config {
  /** PORT: TCP port of the HTTP server. */
  port: number;
  /** HOST: interface the HTTP server binds. */
  host: string;
  /** WEBDATA_PUBLIC_URL: base of every public URL the service hands out (files, polling, WebSockets). */
  publicUrl: string;
  /** WEBDATA_DATA_DIR: SQLite file and artifacts live here. */
  dataDir: string;
  /** WEBDATA_API_KEYS: keys accepted at start-up, each its own user. */
  apiKeys: string[];
  /** DATABASE_URL: empty for the embedded SQLite store, or a postgres:// URL to scale out. */
  databaseUrl: string;
  /** WEBDATA_ALLOW_PRIVATE_NETWORK: lets fetches reach loopback and private ranges (never link-local or metadata). */
  allowPrivateNetwork: boolean;
  /**
   * WEBDATA_TEST_RESOLVE: test-only static name resolution, `host=ip,host=ip`. It exists so tests
   * can give loopback servers real-looking host names (subdomains, registrable domains); the SSRF
   * guard still checks every address it yields.
   */
  testResolve: Map<string, string>;
  /**
   * WEBDATA_PROXY_URLS: upstream HTTP(S) forward proxies for the `proxy` parameter,
   * `us=http://user:pass@host:port,de=...`, keyed by upper-case country code; `*` is the default
   * for other countries and for sessions with `proxy: true`.
   */
  proxyUrls: Map<string, URL>;
  /** WEBDATA_FETCH_TIMEOUT_MS: whole-request deadline of one outbound HTTP fetch, redirects included. */
  fetchTimeoutMs: number;
  /**
   * WEBDATA_PAGE_BUDGET_MS: time one scraped page may take from the first byte fetched to its
   * content settled, every method tried included; each fetch, navigation and wait draws from it.
   */
  pageBudgetMs: number;
  /** WEBDATA_MAX_PAGE_BYTES: largest decoded page body accepted from the web. */
  maxPageBytes: number;
  /** WEBDATA_MAX_REQUEST_BYTES: largest JSON body accepted by the API (413 beyond). */
  maxRequestBytes: number;
  /** WEBDATA_REQUEST_TIMEOUT_MS: time a client has to send a whole request, headers and body (408 beyond). */
  requestTimeoutMs: number;
  /** WEBDATA_BATCH_MAX_URLS: most URLs in one synchronous /v1/scrape/batch. */
  batchMaxUrls: number;
  /** WEBDATA_BATCH_CONCURRENCY: URLs of one batch fetched at once. */
  batchConcurrency: number;
  /** WEBDATA_CONTENT_WORKERS: worker threads converting HTML to markdown. */
  contentWorkers: number;
  /** WEBDATA_MAX_INFLIGHT_PER_USER: concurrent API requests one user may have before 429. */
  maxInflightPerUser: number;
  /** WEBDATA_CONVERT_TIMEOUT_MS: longest one page's HTML conversion may hold a content worker. */
  convertTimeoutMs: number;
  /** WEBDATA_PDF_MAX_PAGES: pages of a PDF read (text layer or OCR); later pages are left out. */
  pdfMaxPages: number;
  /** WEBDATA_OCR_TIMEOUT_MS: deadline of rendering or recognising one PDF page. */
  ocrTimeoutMs: number;
  /** WEBDATA_OCR_CONCURRENCY: PDFs read by OCR at once, across all users; more wait their turn. */
  ocrConcurrency: number;
  /** WEBDATA_OCR_BUDGET_MS: OCR time one PDF may take in all; pages not reached by then are left out. */
  ocrBudgetMs: number;
  /** WEBDATA_OCR_MAX_PIXELS: largest rendering of one page for OCR; bigger pages are rendered at a lower resolution. */
  ocrMaxPixels: number;
  /** WEBDATA_TRUST_PROXY: take the client address from X-Forwarded-For (only behind a proxy you run). */
  trustProxy: boolean;
  /** WEBDATA_LOG_LEVEL: pino level of the server log. */
  logLevel: string;
  /** WEBDATA_METRICS_TOKEN: bearer token /metrics asks for; empty: /metrics answers loopback clients only. */
  metricsToken: string;
  /** WEBDATA_SHED_EVENT_LOOP_DELAY_MS: mean event-loop delay above which API requests get 503 with Retry-After (0: off). */
  shedEventLoopDelayMs: number;
  /** WEBDATA_SHED_HEAP_BYTES: V8 heap in use above which API requests get 503 (0: off); default 90% of the heap limit. */
  shedHeapBytes: number;
  /** WEBDATA_SHED_RSS_BYTES: resident memory of the server process above which API requests get 503 (0: off). */
  shedRssBytes: number;
  /** WEBDATA_JOB_TTL_SECONDS: how long an async job and its results live after it is created. */
  jobTtlSeconds: number;
  /** WEBDATA_JOB_SWEEP_SECONDS: how often expired jobs are deleted from the store. */
  jobSweepSeconds: number;
  /** WEBDATA_JOB_CONCURRENCY: job items one process runs at once. */
  jobConcurrency: number;
  /** WEBDATA_JOB_HEARTBEAT_SECONDS: Postgres only; a worker silent this long has its item handed to another. */
  jobHeartbeatSeconds: number;
  /** WEBDATA_WORKER: whether `webdata serve` also runs job items (false: only `webdata worker` processes do). */
  runWorker: boolean;
  /** Search engines' endpoints and keys. */
  search: SearchSettings;
  /** The LLM endpoint that summaries and extraction share. */
  llm: LlmSettings;
  /** Page summaries (the `summary` request field). */
  summary: SummarySettings;
  /** Structured extraction (the `extract` request field, POST /v1/extract). */
  extract: ExtractSettings;
  /** WEBDATA_MAP_TIMEOUT_MS: deadline of one /v1/map; what was found by then is the answer. */
  mapTimeoutMs: number;
  /** WEBDATA_MAP_MAX_REQUESTS: outbound requests one /v1/map may make (robots, sitemaps, pages). */
  mapMaxRequests: number;
  /** WEBDATA_CRAWL_HOST_CONCURRENCY: requests a process's crawls have in flight to one host at once. */
  crawlHostConcurrency: number;
  /** WEBDATA_WEBHOOK_TIMEOUT_MS: deadline of one webhook delivery attempt. */
  webhookTimeoutMs: number;
  /** WEBDATA_WEBHOOK_MAX_ATTEMPTS: delivery attempts before a webhook event is given up as failed. */
  webhookMaxAttempts: number;
  /** Remote browser sessions (WEBDATA_SESSION_*, WEBDATA_DEFAULT_BROWSER, WEBDATA_CHROMIUM_*). */
  sessions: SessionConfig;
  /** Browser engine and artifact settings (see BrowserConfig). */
  browser: BrowserConfig;
}

/** Where each search engine is reached; an engine without its key answers every query with an error naming it. */
export interface SearchSettings {
  /** WEBDATA_SEARCH_TIMEOUT_MS: deadline of one query on its engine, every page included. */
  timeoutMs: number;
  /** WEBDATA_FIRECRAWL_SEARCH_ENGINE: the engine of the Firecrawl-compatible /v2/search, whose requests cannot name one. */
  firecrawlEngine: EngineName;
  /** WEBDATA_GOOGLE_URL: origin whose /search results page the google engine reads. */
  googleUrl: string;
  /** GOOGLE_CSE_KEY and GOOGLE_CSE_CX: when both are set, google uses the Custom Search JSON API instead. */
  googleCseKey: string;
  googleCseCx: string;
  /** WEBDATA_GOOGLE_CSE_URL: endpoint of the Custom Search JSON API. */
  googleCseUrl: string;
  /** WEBDATA_BING_URL: origin whose /search results page the bing engine reads. */
  bingUrl: string;
  /** OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_SEARCH_MODEL: the chatgpt engine (Responses API, web_search tool). */
  openaiBaseUrl: string;
  openaiApiKey: string;
  openaiSearchModel: string;
  /** PERPLEXITY_BASE_URL, PERPLEXITY_API_KEY: the perplexity engine (Search API). */
  perplexityBaseUrl: string;
  perplexityApiKey: string;
  /** SEARXNG_URL: a SearXNG instance with the JSON format enabled; empty leaves the engine off. */
  searxngUrl: string;
  /** BRAVE_BASE_URL, BRAVE_API_KEY: the brave engine (Web Search API). */
  braveBaseUrl: string;
  braveApiKey: string;
}

/** The wire format of the LLM endpoint: OpenAI Responses, OpenAI Chat Completions, or Ollama's native chat. */
export const LLM_APIS = ['responses', 'chat-completions', 'ollama'] as const;
export type LlmApi = (typeof LLM_APIS)[number];

/** The LLM behind `summary` and `extract`: one endpoint, shared with the chatgpt engine's key and URL. */
export interface LlmSettings {
  /** WEBDATA_LLM_API: which wire format `baseUrl` speaks; default responses. */
  api: LlmApi;
  /** OPENAI_BASE_URL: API base; requests go to `{baseUrl}/responses`, `{baseUrl}/chat/completions` or `{baseUrl}/api/chat`. */
  baseUrl: string;
  /** OPENAI_API_KEY: empty (with an OpenAI-style api) means no LLM: summaries are extractive and LLM extraction answers 400. */
  apiKey: string;
  /**
   * WEBDATA_LLM_STRUCTURED_OUTPUT: send the caller's schema as the provider's JSON Schema response
   * format (default true); false for chat-completions servers that reject `response_format`, where
   * the schema goes into the prompt instead.
   */
  structuredOutput: boolean;
}

/** Summaries of fetched pages (the `summary` request field). */
export interface SummarySettings {
  /** WEBDATA_SUMMARY_MODEL: model that writes summaries. */
  model: string;
  /** WEBDATA_SUMMARY_MAX_INPUT_CHARS: page markdown sent to the model is cut to this many characters. */
  maxInputChars: number;
  /** WEBDATA_SUMMARY_TIMEOUT_MS: deadline of one summary call. */
  timeoutMs: number;
  /** WEBDATA_SUMMARY_EXTRACTIVE_CHARS: longest extractive summary (used when no LLM is configured). */
  extractiveChars: number;
}

/** Structured extraction (the `extract` request field and POST /v1/extract). */
export interface ExtractSettings {
  /** WEBDATA_EXTRACT_MODEL: model that extracts; default the summary model. */
  model: string;
  /** WEBDATA_EXTRACT_MAX_INPUT_CHARS: the model's window for page markdown; longer pages are cut with a `warning`. */
  maxInputChars: number;
  /** WEBDATA_EXTRACT_TIMEOUT_MS: deadline of one model call (a repair round is a second call). */
  timeoutMs: number;
}

export interface SessionConfig {
  /** WEBDATA_DEFAULT_BROWSER: engine used when a create request names none. */
  defaultBrowser: string;
  /** WEBDATA_CHROMIUM_HEADLESS: browser binary of headless sessions. */
  chromiumHeadless: string;
  /** WEBDATA_CHROMIUM_VISIBLE: browser binary of visible sessions (run under their own Xvfb). */
  chromiumVisible: string;
  /** WEBDATA_SESSION_IDLE_TIMEOUT_MS: a session with no CDP or VNC traffic this long is closed. */
  idleTimeoutMs: number;
  /** WEBDATA_SESSION_MAX_LIFETIME_MS: longest an active session runs before it is closed. */
  maxLifetimeMs: number;
  /** WEBDATA_SESSIONS_MAX: active sessions this instance runs at once. */
  maxSessions: number;
  /** WEBDATA_SESSIONS_MAX_PER_USER: active sessions one user may have on this instance. */
  maxSessionsPerUser: number;
  /** WEBDATA_SESSION_WARM_SPARES: headless browsers kept launched so a create need not wait for one. */
  warmSpares: number;
}

export interface BrowserConfig {
  /** WEBDATA_CHROMIUM_HEADLESS (shared with sessions): executable of the headless pool (`browser` method). */
  headlessPath: string;
  /** WEBDATA_CHROMIUM_VISIBLE (shared with sessions): full Chromium, run headful under Xvfb for `browser-stealth`. */
  chromiumPath: string;
  /** WEBDATA_BROWSER_POOL_SIZE: headless browsers kept running. */
  poolSize: number;
  /** WEBDATA_STEALTH_POOL_SIZE: headful stealth browsers kept running once the first is needed. */
  stealthPoolSize: number;
  /** WEBDATA_BROWSER_MAX_PAGES: pages open at once across each pool; more requests queue. */
  maxPages: number;
  /** WEBDATA_BROWSER_QUEUE_WAIT_MS: longest a request waits for a page before 429. */
  queueWaitMs: number;
  /** WEBDATA_BROWSER_RECYCLE_PAGES: a browser is replaced after serving this many pages. */
  recycleAfterPages: number;
  /** WEBDATA_BROWSER_WARM: launch the headless pool at start instead of on first use. */
  warm: boolean;
  /**
   * WEBDATA_BROWSER_MAX_LOAD_BYTES: bytes one browser page (its context: document, subresources,
   * tunnels) may bring in through the egress proxy; its requests are stopped beyond it.
   */
  maxLoadBytes: number;
  /** WEBDATA_ARTIFACT_TTL_HOURS: screenshots and PDFs are deleted this long after creation. */
  artifactTtlHours: number;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

function list(env: Env, name: string): string[] {
  return (env[name] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function hostMap(env: Env, name: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const pair of list(env, name)) {
    const [host, ip] = pair.split('=').map((s) => s.trim());
    if (!host || !ip) throw new ConfigError(`${name} entries must look like host=ip, got "${pair}"`);
    map.set(host.toLowerCase(), ip);
  }
  return map;
}

function proxyTable(env: Env, name: string): Map<string, URL> {
  try {
    return parseProxyUrls(env[name] ?? '');
  } catch (err) {
    throw new ConfigError(`${name}: ${(err as Error).message}`);
  }
}

function url(env: Env, name: string, fallback: string, protocols: string[]): string {
  const raw = env[name]?.trim() || fallback;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol)) throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got "${raw}"`);
  return raw.replace(/\/+$/, '');
}

function choice<T extends string>(env: Env, name: string, options: readonly T[], fallback: T): T {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!(options as readonly string[]).includes(raw)) throw new ConfigError(`${name} must be one of ${options.join(', ')}, got "${raw}"`);
  return raw as T;
}

function secret(env: Env, name: string): string {
  return env[name]?.trim() ?? '';
}

function searchSettings(env: Env): SearchSettings {
  const web = ['http:', 'https:'];
  const googleCseKey = secret(env, 'GOOGLE_CSE_KEY');
  const googleCseCx = secret(env, 'GOOGLE_CSE_CX');
  if (Boolean(googleCseKey) !== Boolean(googleCseCx)) throw new ConfigError('GOOGLE_CSE_KEY and GOOGLE_CSE_CX must be set together');
  const firecrawlEngine = env.WEBDATA_FIRECRAWL_SEARCH_ENGINE?.trim() || 'google';
  if (!(ENGINE_NAMES as readonly string[]).includes(firecrawlEngine)) {
    throw new ConfigError(`WEBDATA_FIRECRAWL_SEARCH_ENGINE must be one of ${ENGINE_NAMES.join(', ')}, got "${firecrawlEngine}"`);
  }
  return {
    timeoutMs: int(env, 'WEBDATA_SEARCH_TIMEOUT_MS', 20_000, 100, 300_000),
    firecrawlEngine: firecrawlEngine as EngineName,
    googleUrl: url(env, 'WEBDATA_GOOGLE_URL', 'https://www.google.com', web),
    googleCseKey,
    googleCseCx,
    googleCseUrl: url(env, 'WEBDATA_GOOGLE_CSE_URL', 'https://www.googleapis.com/customsearch/v1', web),
    bingUrl: url(env, 'WEBDATA_BING_URL', 'https://www.bing.com', web),
    openaiBaseUrl: url(env, 'OPENAI_BASE_URL', 'https://api.openai.com/v1', web),
    openaiApiKey: secret(env, 'OPENAI_API_KEY'),
    openaiSearchModel: env.OPENAI_SEARCH_MODEL?.trim() || 'gpt-5-mini',
    perplexityBaseUrl: url(env, 'PERPLEXITY_BASE_URL', 'https://api.perplexity.ai', web),
    perplexityApiKey: secret(env, 'PERPLEXITY_API_KEY'),
    searxngUrl: env.SEARXNG_URL?.trim() ? url(env, 'SEARXNG_URL', '', web) : '',
    braveBaseUrl: url(env, 'BRAVE_BASE_URL', 'https://api.search.brave.com', web),
    braveApiKey: secret(env, 'BRAVE_API_KEY'),
  };
}

export function loadConfig(env: Env = process.env): Config {
  const port = int(env, 'PORT', 3000, 0, 65535);
  const databaseUrl = env.DATABASE_URL?.trim() ?? '';
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be empty (embedded SQLite) or a postgres:// URL');
  }
  const runWorker = bool(env, 'WEBDATA_WORKER', true);
  if (!databaseUrl && !runWorker) {
    throw new ConfigError('WEBDATA_WORKER=false needs DATABASE_URL=postgres://... and `webdata worker` processes; with SQLite, serve runs the jobs');
  }
  const apiKeys = list(env, 'WEBDATA_API_KEYS');
  for (const key of apiKeys) {
    if (key.length < 16) throw new ConfigError('WEBDATA_API_KEYS entries must be at least 16 characters long');
  }
  const summaryModel = env.WEBDATA_SUMMARY_MODEL?.trim() || 'gpt-5-mini';
  return {
    port,
    host: env.HOST?.trim() || '127.0.0.1',
    publicUrl: url(env, 'WEBDATA_PUBLIC_URL', `http://localhost:${port}`, ['http:', 'https:']),
    dataDir: resolve(env.WEBDATA_DATA_DIR?.trim() || './data'),
    apiKeys,
    databaseUrl,
    allowPrivateNetwork: bool(env, 'WEBDATA_ALLOW_PRIVATE_NETWORK', false),
    testResolve: hostMap(env, 'WEBDATA_TEST_RESOLVE'),
    proxyUrls: proxyTable(env, 'WEBDATA_PROXY_URLS'),
    fetchTimeoutMs: int(env, 'WEBDATA_FETCH_TIMEOUT_MS', 15_000, 100, 300_000),
    pageBudgetMs: int(env, 'WEBDATA_PAGE_BUDGET_MS', 30_000, 1_000, 600_000),
    maxPageBytes: int(env, 'WEBDATA_MAX_PAGE_BYTES', 10 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    maxRequestBytes: int(env, 'WEBDATA_MAX_REQUEST_BYTES', 5 * 1024 * 1024, 1024, 100 * 1024 * 1024),
    requestTimeoutMs: int(env, 'WEBDATA_REQUEST_TIMEOUT_MS', 30_000, 500, 600_000),
    batchMaxUrls: int(env, 'WEBDATA_BATCH_MAX_URLS', 100, 1, 1000),
    batchConcurrency: int(env, 'WEBDATA_BATCH_CONCURRENCY', 8, 1, 256),
    contentWorkers: int(env, 'WEBDATA_CONTENT_WORKERS', Math.max(1, availableParallelism()), 0, 64),
    maxInflightPerUser: int(env, 'WEBDATA_MAX_INFLIGHT_PER_USER', 32, 1, 10_000),
    convertTimeoutMs: int(env, 'WEBDATA_CONVERT_TIMEOUT_MS', 20_000, 100, 600_000),
    pdfMaxPages: int(env, 'WEBDATA_PDF_MAX_PAGES', 100, 1, 10_000),
    ocrTimeoutMs: int(env, 'WEBDATA_OCR_TIMEOUT_MS', 60_000, 1_000, 600_000),
    ocrConcurrency: int(env, 'WEBDATA_OCR_CONCURRENCY', 1, 1, 64),
    ocrBudgetMs: int(env, 'WEBDATA_OCR_BUDGET_MS', 120_000, 1_000, 3_600_000),
    ocrMaxPixels: int(env, 'WEBDATA_OCR_MAX_PIXELS', 8_000_000, 100_000, 200_000_000),
    trustProxy: bool(env, 'WEBDATA_TRUST_PROXY', false),
    logLevel: env.WEBDATA_LOG_LEVEL?.trim() || 'info',
    metricsToken: secret(env, 'WEBDATA_METRICS_TOKEN'),
    shedEventLoopDelayMs: int(env, 'WEBDATA_SHED_EVENT_LOOP_DELAY_MS', 1000, 0, 60_000),
    // V8 aborts the process at its heap limit; refusing new work short of it lets running requests finish.
    shedHeapBytes: int(env, 'WEBDATA_SHED_HEAP_BYTES', Math.floor(getHeapStatistics().heap_size_limit * 0.9), 0, Number.MAX_SAFE_INTEGER),
    shedRssBytes: int(env, 'WEBDATA_SHED_RSS_BYTES', 0, 0, Number.MAX_SAFE_INTEGER),
    jobTtlSeconds: int(env, 'WEBDATA_JOB_TTL_SECONDS', 24 * 60 * 60, 1, 365 * 24 * 60 * 60),
    jobSweepSeconds: int(env, 'WEBDATA_JOB_SWEEP_SECONDS', 60, 1, 24 * 60 * 60),
    jobConcurrency: int(env, 'WEBDATA_JOB_CONCURRENCY', 8, 1, 256),
    jobHeartbeatSeconds: int(env, 'WEBDATA_JOB_HEARTBEAT_SECONDS', 30, 10, 3600),
    runWorker,
    search: searchSettings(env),
    llm: {
      api: choice(env, 'WEBDATA_LLM_API', LLM_APIS, 'responses'),
      baseUrl: url(env, 'OPENAI_BASE_URL', 'https://api.openai.com/v1', ['http:', 'https:']),
      apiKey: secret(env, 'OPENAI_API_KEY'),
      structuredOutput: bool(env, 'WEBDATA_LLM_STRUCTURED_OUTPUT', true),
    },
    summary: {
      model: summaryModel,
      maxInputChars: int(env, 'WEBDATA_SUMMARY_MAX_INPUT_CHARS', 100_000, 1_000, 2_000_000),
      timeoutMs: int(env, 'WEBDATA_SUMMARY_TIMEOUT_MS', 60_000, 100, 600_000),
      extractiveChars: int(env, 'WEBDATA_SUMMARY_EXTRACTIVE_CHARS', 1_200, 200, 20_000),
    },
    extract: {
      model: env.WEBDATA_EXTRACT_MODEL?.trim() || summaryModel,
      maxInputChars: int(env, 'WEBDATA_EXTRACT_MAX_INPUT_CHARS', 200_000, 1_000, 4_000_000),
      timeoutMs: int(env, 'WEBDATA_EXTRACT_TIMEOUT_MS', 120_000, 100, 600_000),
    },
    mapTimeoutMs: int(env, 'WEBDATA_MAP_TIMEOUT_MS', 30_000, 1_000, 600_000),
    mapMaxRequests: int(env, 'WEBDATA_MAP_MAX_REQUESTS', 200, 5, 10_000),
    crawlHostConcurrency: int(env, 'WEBDATA_CRAWL_HOST_CONCURRENCY', 4, 1, 64),
    webhookTimeoutMs: int(env, 'WEBDATA_WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000),
    webhookMaxAttempts: int(env, 'WEBDATA_WEBHOOK_MAX_ATTEMPTS', 8, 1, 50),
    sessions: {
      defaultBrowser: env.WEBDATA_DEFAULT_BROWSER?.trim() || 'chromium',
      chromiumHeadless: env.WEBDATA_CHROMIUM_HEADLESS?.trim() || '/usr/bin/chromium-headless-shell',
      chromiumVisible: env.WEBDATA_CHROMIUM_VISIBLE?.trim() || '/usr/bin/chromium',
      idleTimeoutMs: int(env, 'WEBDATA_SESSION_IDLE_TIMEOUT_MS', 5 * 60_000, 500, 24 * 3_600_000),
      maxLifetimeMs: int(env, 'WEBDATA_SESSION_MAX_LIFETIME_MS', 60 * 60_000, 1_000, 7 * 24 * 3_600_000),
      maxSessions: int(env, 'WEBDATA_SESSIONS_MAX', 8, 1, 1_000),
      maxSessionsPerUser: int(env, 'WEBDATA_SESSIONS_MAX_PER_USER', 3, 1, 1_000),
      warmSpares: int(env, 'WEBDATA_SESSION_WARM_SPARES', 1, 0, 8),
    },
    browser: {
      headlessPath: env.WEBDATA_CHROMIUM_HEADLESS?.trim() || '/usr/bin/chromium-headless-shell',
      chromiumPath: env.WEBDATA_CHROMIUM_VISIBLE?.trim() || '/usr/bin/chromium',
      poolSize: int(env, 'WEBDATA_BROWSER_POOL_SIZE', 2, 1, 32),
      stealthPoolSize: int(env, 'WEBDATA_STEALTH_POOL_SIZE', 1, 1, 8),
      maxPages: int(env, 'WEBDATA_BROWSER_MAX_PAGES', 8, 1, 256),
      queueWaitMs: int(env, 'WEBDATA_BROWSER_QUEUE_WAIT_MS', 10_000, 0, 120_000),
      recycleAfterPages: int(env, 'WEBDATA_BROWSER_RECYCLE_PAGES', 200, 1, 100_000),
      warm: bool(env, 'WEBDATA_BROWSER_WARM', false),
      maxLoadBytes: int(env, 'WEBDATA_BROWSER_MAX_LOAD_BYTES', 64 * 1024 * 1024, 64 * 1024, 4 * 1024 * 1024 * 1024),
      artifactTtlHours: int(env, 'WEBDATA_ARTIFACT_TTL_HOURS', 24, 1, 24 * 365),
    },
  };
}
