import { type Static, Type } from 'typebox';
import {
  CRAWL_MAX_DELAY_MS,
  CRAWL_MAX_DEPTH,
  CRAWL_MAX_LIMIT,
  MAP_MAX_SEARCH_CHARS,
  MAX_AGE_MS,
  MAX_PROMPT_CHARS,
  MAX_SELECTOR_CHARS,
  Patterns,
  urlBody,
} from '../../../ops/index.ts';
import { DomainFilter } from '../../schemas/search.ts';

/**
 * Firecrawl v2's request bodies, as far as this server serves them. Format and action entries are
 * checked one by one in translate.ts, so an unsupported one is named with its index. Fields that
 * only tune Firecrawl's own infrastructure (TLS checks, ad blocking...) are accepted and
 * have no effect; any other unknown field is a 400 naming it, as on the native API.
 */
/** Tags Firecrawl's SDKs send to say who calls; every body takes them, to no effect. */
const CallerTags = {
  integration: Type.Optional(Type.String()),
  origin: Type.Optional(Type.String()),
};
const Loose = Type.Object({ type: Type.String() }, { additionalProperties: true });
const NoEffect = {
  timeout: Type.Optional(Type.Number()),
  skipTlsVerification: Type.Optional(Type.Boolean()),
  removeBase64Images: Type.Optional(Type.Boolean()),
  blockAds: Type.Optional(Type.Boolean()),
  fastMode: Type.Optional(Type.Boolean()),
  minAge: Type.Optional(Type.Number()),
  parsers: Type.Optional(Type.Array(Type.Unknown())),
  zeroDataRetention: Type.Optional(Type.Boolean()),
  ...CallerTags,
};

/** Firecrawl's JSON options beside a plain `json` format; the format object carries the same two fields. */
const JsonOptions = Type.Object(
  {
    schema: Type.Optional(Type.Unknown()),
    prompt: Type.Optional(Type.String({ maxLength: MAX_PROMPT_CHARS })),
  },
  { additionalProperties: false },
);

const Location = Type.Object(
  {
    country: Type.Optional(Type.String({ minLength: 2, maxLength: 2 })),
    languages: Type.Optional(Type.Array(Type.String())),
  },
  { additionalProperties: false },
);

export const scrapeOptionFields = {
  proxy: Type.Optional(
    Type.String({
      description:
        'basic: plain HTTP, then the headless browser, never browser-stealth; stealth (or enhanced): browser-stealth alone; auto (default): the whole ladder',
    }),
  ),
  formats: Type.Optional(Type.Array(Type.Union([Type.String(), Loose]), { maxItems: 20 })),
  onlyMainContent: Type.Optional(Type.Boolean()),
  includeComments: Type.Optional(Type.Boolean()),
  includeTags: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: MAX_SELECTOR_CHARS }), { maxItems: 50 }),
  ),
  excludeTags: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: MAX_SELECTOR_CHARS }), { maxItems: 50 }),
  ),
  waitFor: Type.Optional(Type.Integer({ minimum: 0, maximum: 30_000 })),
  mobile: Type.Optional(Type.Literal(false)),
  actions: Type.Optional(Type.Array(Loose, { maxItems: 100 })),
  location: Type.Optional(Location),
  jsonOptions: Type.Optional(JsonOptions),
  maxAge: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_AGE_MS })),
  storeInCache: Type.Optional(Type.Boolean()),
  ...NoEffect,
};

export const ScrapeOptions = Type.Object(scrapeOptionFields, { additionalProperties: false });
export type ScrapeOptions = Static<typeof ScrapeOptions>;

export const V2ScrapeBody = urlBody(scrapeOptionFields);
export type V2ScrapeBody = Static<typeof V2ScrapeBody>;

export const V2BatchBody = Type.Object(
  {
    urls: Type.Array(Type.String(), { minItems: 1 }),
    ...scrapeOptionFields,
    ignoreInvalidURLs: Type.Optional(Type.Boolean()),
    maxConcurrency: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);
export type V2BatchBody = Static<typeof V2BatchBody>;

export const V2MapBody = Type.Object(
  {
    url: Type.String({ minLength: 1 }),
    search: Type.Optional(Type.String({ maxLength: MAP_MAX_SEARCH_CHARS })),
    sitemap: Type.Optional(
      Type.Union([Type.Literal('include'), Type.Literal('only'), Type.Literal('skip')]),
    ),
    includeSubdomains: Type.Optional(Type.Boolean()),
    ignoreQueryParameters: Type.Optional(Type.Boolean()),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 5000 })),
    timeout: Type.Optional(Type.Number()),
    ...CallerTags,
  },
  { additionalProperties: false },
);
export type V2MapBody = Static<typeof V2MapBody>;

export const V2SearchBody = Type.Object(
  {
    query: Type.String({ minLength: 1, maxLength: 2048 }),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
    sources: Type.Optional(Type.Array(Type.Union([Type.String(), Loose]))),
    includeDomains: Type.Optional(Type.Array(DomainFilter, { maxItems: 100 })),
    excludeDomains: Type.Optional(Type.Array(DomainFilter, { maxItems: 100 })),
    country: Type.Optional(Type.String()),
    location: Type.Optional(Type.String()),
    scrapeOptions: Type.Optional(ScrapeOptions),
    timeout: Type.Optional(Type.Number()),
    ignoreInvalidURLs: Type.Optional(Type.Boolean()),
    ...CallerTags,
  },
  { additionalProperties: false },
);
export type V2SearchBody = Static<typeof V2SearchBody>;

/**
 * Firecrawl's crawl options. Those with no native counterpart and a visible effect (a prompt
 * turned into options, external links, full-URL patterns, another robots agent) are accepted only
 * at the value that means "off", so a request relying on them is refused rather than misread.
 */
export const V2CrawlBody = Type.Object(
  {
    url: Type.String({ minLength: 1 }),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: CRAWL_MAX_LIMIT })),
    maxDiscoveryDepth: Type.Optional(Type.Integer({ minimum: 0, maximum: CRAWL_MAX_DEPTH })),
    includePaths: Type.Optional(Patterns('when given, only matching pages are crawled')),
    excludePaths: Type.Optional(Patterns('matching pages are not crawled')),
    sitemap: Type.Optional(
      Type.Union([Type.Literal('include'), Type.Literal('skip'), Type.Literal('only')]),
    ),
    ignoreQueryParameters: Type.Optional(Type.Boolean()),
    crawlEntireDomain: Type.Optional(Type.Boolean()),
    allowSubdomains: Type.Optional(Type.Boolean()),
    allowExternalLinks: Type.Optional(Type.Literal(false)),
    regexOnFullURL: Type.Optional(Type.Literal(false)),
    delay: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: CRAWL_MAX_DELAY_MS / 1000,
        description: 'Seconds between two requests to a host',
      }),
    ),
    maxConcurrency: Type.Optional(Type.Integer({ minimum: 1 })),
    deduplicateSimilarURLs: Type.Optional(Type.Boolean()),
    scrapeOptions: Type.Optional(ScrapeOptions),
    zeroDataRetention: Type.Optional(Type.Boolean()),
    ...CallerTags,
  },
  { additionalProperties: false },
);
export type V2CrawlBody = Static<typeof V2CrawlBody>;

export const JobParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
export const JobPageQuery = Type.Object(
  { skip: Type.Optional(Type.String({ pattern: '^\\d{1,9}$' })) },
  { additionalProperties: false },
);
