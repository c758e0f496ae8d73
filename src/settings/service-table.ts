import { availableParallelism } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import { LOG_LEVELS } from './choices.ts';
import { bool, choice, custom, hostMap, int, list, path, text, url } from './kinds.ts';
import { parseProxyUrls } from './proxy-table.ts';
import { DAY_S, MIB, S } from './units.ts';

/** The server itself: where it listens, what it stores, what it lets through. */
export const SERVICE_SETTINGS = {
  port: int('PORT', {
    group: 'Server',
    essential: true,
    default: 3000,
    min: 0,
    max: 65535,
    doc: 'TCP port of the HTTP server',
  }),
  host: text('HOST', {
    group: 'Server',
    essential: true,
    default: '127.0.0.1',
    doc: 'interface the HTTP server binds',
  }),
  publicUrl: url('WEBDATA_PUBLIC_URL', {
    group: 'Server',
    essential: true,
    default: (earlier) => `http://localhost:${String(earlier('PORT'))}`,
    shownDefault: '`http://localhost:$PORT`',
    doc: 'base of every public URL the service hands out (files, polling, WebSockets)',
  }),
  dataDir: path('WEBDATA_DATA_DIR', {
    group: 'Server',
    essential: true,
    default: './data',
    doc: 'folder of the SQLite file and the artifacts',
  }),
  apiKeys: list('WEBDATA_API_KEYS', {
    group: 'Server',
    essential: true,
    check: (key) => (key.length < 16 ? 'entries must be at least 16 characters long' : undefined),
    doc: 'comma-separated keys accepted at start-up, each its own user (16+ characters)',
  }),
  databaseUrl: custom('DATABASE_URL', {
    group: 'Server',
    essential: true,
    kind: 'empty or `postgres://` URL',
    shownDefault: '(empty: SQLite)',
    parse(raw) {
      if (raw && !/^postgres(ql)?:\/\//.test(raw))
        throw new Error('must be empty (embedded SQLite) or a postgres:// URL');
      return raw;
    },
    doc: 'empty for the embedded SQLite store, or `postgres://...` to use Postgres and scale out',
  }),
  trustProxy: bool('WEBDATA_TRUST_PROXY', {
    group: 'Server',
    default: false,
    doc: 'take the client address from `X-Forwarded-For`; set only behind a reverse proxy you run',
  }),
  network: {
    allowPrivate: bool('WEBDATA_ALLOW_PRIVATE_NETWORK', {
      group: 'Network',
      essential: true,
      default: false,
      doc: 'let fetches reach loopback and private ranges (never link-local or metadata)',
    }),
    staticHosts: custom('WEBDATA_TEST_RESOLVE', {
      group: 'Network',
      kind: '`host=ip` list',
      shownDefault: '(none)',
      parse: hostMap,
      doc:
        'test only: `host=ip,...` static name answers (still checked by the SSRF guard); it exists so tests can give loopback ' +
        'fixture sites real-looking host names (subdomains, registrable domains), as the map tests do with `www.sitemaps.test` and ' +
        '`blog.sitemaps.test` for subdomain scoping',
    }),
  },
  proxyUrls: custom('WEBDATA_PROXY_URLS', {
    group: 'Network',
    essential: true,
    kind: '`country=url` list',
    shownDefault: '(none)',
    parse: parseProxyUrls,
    doc:
      'upstream HTTP(S) forward proxies for `proxy: { country }`: `us=http://user:pass@host:port,de=...`, country codes in any ' +
      'case; `*=url` is the default for other countries and for sessions with `proxy: true`. See [Geo proxies](api.md#geo-proxies-proxy)',
  }),
  fetchTimeoutMs: int('WEBDATA_FETCH_TIMEOUT_MS', {
    group: 'Network',
    default: 15 * S,
    min: 100,
    max: 300 * S,
    doc: 'whole-request deadline of one outbound HTTP fetch, redirects included',
  }),
  pageBudgetMs: int('WEBDATA_PAGE_BUDGET_MS', {
    group: 'Limits',
    default: 30 * S,
    min: S,
    max: 600 * S,
    doc:
      'time one scraped page may take from the first byte fetched to its content settled, over every method tried (HTTP, browser, ' +
      'stealth); each fetch, navigation and wait for content draws from it; see [rendering.md](rendering.md)',
  }),
  maxPageBytes: int('WEBDATA_MAX_PAGE_BYTES', {
    group: 'Limits',
    default: 10 * MIB,
    min: 1024,
    max: 1024 * MIB,
    doc: 'largest page body accepted from the web (after decompression)',
  }),
  maxRequestBytes: int('WEBDATA_MAX_REQUEST_BYTES', {
    group: 'Limits',
    default: 5 * MIB,
    min: 1024,
    max: 100 * MIB,
    doc: 'largest JSON body accepted by the API (413 beyond)',
  }),
  requestTimeoutMs: int('WEBDATA_REQUEST_TIMEOUT_MS', {
    group: 'Limits',
    default: 30 * S,
    min: 500,
    max: 600 * S,
    doc: 'time a client has to send a whole request, headers and body (408 beyond; a slow body holds an in-flight place meanwhile)',
  }),
  batchMaxUrls: int('WEBDATA_BATCH_MAX_URLS', {
    group: 'Limits',
    default: 100,
    min: 1,
    max: 1000,
    doc: 'most URLs in one synchronous `/v1/scrape/batch`',
  }),
  batchConcurrency: int('WEBDATA_BATCH_CONCURRENCY', {
    group: 'Limits',
    default: 8,
    min: 1,
    max: 256,
    doc: 'URLs of one batch fetched at once',
  }),
  maxInflightPerUser: int('WEBDATA_MAX_INFLIGHT_PER_USER', {
    group: 'Limits',
    default: 32,
    min: 1,
    max: 10_000,
    doc: 'concurrent API requests one user may have before 429',
  }),
  contentWorkers: int('WEBDATA_CONTENT_WORKERS', {
    group: 'Content and PDFs',
    default: () => Math.max(1, availableParallelism()),
    shownDefault: 'cores',
    min: 0,
    max: 64,
    doc: 'worker threads converting HTML to markdown (0 converts inline)',
  }),
  convertTimeoutMs: int('WEBDATA_CONVERT_TIMEOUT_MS', {
    group: 'Content and PDFs',
    default: 20 * S,
    min: 100,
    max: 600 * S,
    doc: "longest one page's task on a content worker may take (its HTML conversion, its includeTags/excludeTags, its listing, its extract.selectors); the worker is ended and the page (or its extraction) fails beyond it",
  }),
  pdfMaxPages: int('WEBDATA_PDF_MAX_PAGES', {
    group: 'Content and PDFs',
    default: 100,
    min: 1,
    max: 10_000,
    doc: 'pages of a PDF read (text layer or OCR); later pages are left out',
  }),
  ocrTimeoutMs: int('WEBDATA_OCR_TIMEOUT_MS', {
    group: 'Content and PDFs',
    default: 60 * S,
    min: S,
    max: 600 * S,
    doc: 'deadline for rendering or recognising one PDF page',
  }),
  ocrConcurrency: int('WEBDATA_OCR_CONCURRENCY', {
    group: 'Content and PDFs',
    default: 1,
    min: 1,
    max: 64,
    doc: 'PDF pages read by OCR at once, across all users, in a lane apart from HTML conversion; more wait their turn, pages of different keys in turn',
  }),
  ocrBudgetMs: int('WEBDATA_OCR_BUDGET_MS', {
    group: 'Content and PDFs',
    default: 120 * S,
    min: S,
    max: 3600 * S,
    doc: "time one PDF may take in OCR in all, its pages' turns in the lane included; pages not reached by then are left out",
  }),
  ocrMaxPixels: int('WEBDATA_OCR_MAX_PIXELS', {
    group: 'Content and PDFs',
    default: 8_000_000,
    min: 100_000,
    max: 200_000_000,
    doc: 'largest rendering of one page for OCR (200 dpi, lowered for bigger pages)',
  }),
  cache: {
    defaultMaxAgeMs: int('WEBDATA_CACHE_MAX_AGE_MS', {
      group: 'Cache',
      default: 0,
      shownDefault: '`0` (always fetch)',
      min: 0,
      max: 365 * DAY_S * S,
      doc: 'the `maxAge` of a scrape that gives none: how old a cached result may be to be served instead of fetching. See [cache.md](cache.md)',
    }),
    maxBytes: int('WEBDATA_CACHE_MAX_BYTES', {
      group: 'Cache',
      default: 1024 * MIB,
      min: 1024,
      max: Number.MAX_SAFE_INTEGER,
      doc: 'most bytes of compressed cached results kept under `$WEBDATA_DATA_DIR/cache`; the least recently used go first beyond it',
    }),
    ttlSeconds: int('WEBDATA_CACHE_TTL_SECONDS', {
      group: 'Cache',
      default: 7 * DAY_S,
      min: 1,
      max: 365 * DAY_S,
      doc: 'longest a cached result is kept (and may be served), whatever `maxAge` asks',
    }),
    snapshotRetentionDays: int('WEBDATA_CHANGE_RETENTION_DAYS', {
      group: 'Cache',
      default: 30,
      min: 1,
      max: 3650,
      doc: 'how long the last page change tracking saw (per key, URL and tag) is kept to compare the next scrape with; older, the next scrape is `new`',
    }),
    shared: bool('WEBDATA_CACHE_SHARED', {
      group: 'Cache',
      default: false,
      doc: "serve one API key's cached results to every key (off: each key sees only what its own requests stored). Cached results never carry credentials: requests with actions are never cached",
    }),
  },
  logLevel: choice('WEBDATA_LOG_LEVEL', {
    group: 'Operations',
    options: LOG_LEVELS,
    default: 'info',
    doc: 'pino level of the server log',
  }),
  metricsToken: text('WEBDATA_METRICS_TOKEN', {
    group: 'Operations',
    default: '',
    doc: 'bearer token `/metrics` asks for; without it `/metrics` answers loopback clients only',
  }),
  shedEventLoopDelayMs: int('WEBDATA_SHED_EVENT_LOOP_DELAY_MS', {
    group: 'Operations',
    default: 1000,
    min: 0,
    max: 60 * S,
    doc: 'mean event-loop delay above which API requests get 503 with `Retry-After` (`0`: off)',
  }),
  shedHeapBytes: int('WEBDATA_SHED_HEAP_BYTES', {
    group: 'Operations',
    // V8 aborts the process at its heap limit; refusing new work short of it lets running requests finish.
    default: () => Math.floor(getHeapStatistics().heap_size_limit * 0.9),
    shownDefault: "90% of V8's heap limit",
    min: 0,
    max: Number.MAX_SAFE_INTEGER,
    doc: 'JavaScript heap in use above which API requests get 503 (`0`: off)',
  }),
  shedRssBytes: int('WEBDATA_SHED_RSS_BYTES', {
    group: 'Operations',
    default: 0,
    shownDefault: '`0` (off)',
    min: 0,
    max: Number.MAX_SAFE_INTEGER,
    doc: 'resident memory of the server process above which API requests get 503',
  }),
};
