import { type Static, Type } from 'typebox';
import { Actions, MethodChoice } from '../../contract/index.ts';
import { PAGE_FORMATS } from '../../page/index.ts';
import { Format, MAX_SELECTOR_CHARS, ProxyObject, SummaryObject } from './common.ts';
import { ExtractObject } from './extract.ts';

const PdfStrategy = Type.Union([Type.Literal('ocr'), Type.Literal('local'), Type.Literal('auto')], {
  description:
    'ocr: recognise every page; local: text layer only; auto: text layer, OCR for pages without one. Default ocr',
});

const PageFormatSchema = Type.Enum(PAGE_FORMATS, {
  description:
    "markdown, html (main content or whole page, per onlyMainContent), rawHtml (the page as served), links (every link on the page), listing (the page's repeated cards as data: name, url, price, image; beyond the spec, no extra charge)",
});
const Selectors = (what: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: MAX_SELECTOR_CHARS }), {
    maxItems: 50,
    description: `CSS selectors of elements to ${what} before conversion`,
  });

/** The largest maxAge: a year, past any cache entry's lifetime. */
export const MAX_AGE_MS = 365 * 24 * 3_600_000;

/** The fields that shape a page's content, shared by single, batch and batch items. */
/** Firecrawl v2's change-tracking format, asked for natively the same way. */
export const ChangeTrackingFormat = Type.Object(
  {
    type: Type.Literal('changeTracking'),
    modes: Type.Optional(
      Type.Array(Type.Union([Type.Literal('git-diff'), Type.Literal('json')]), {
        uniqueItems: true,
        description:
          "git-diff: a unified diff of the main-content markdown when it changed; json: the changed fields of the request's extraction (needs extract)",
      }),
    ),
    tag: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Keeps a separate history per tag (default: one history per URL)',
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'Compare the page with the last scrape of it by this key (and tag): changeTracking in the result. Needs markdown among the formats',
  },
);

const pageFields = {
  formats: Type.Optional(
    Type.Array(Type.Union([PageFormatSchema, ChangeTrackingFormat]), {
      minItems: 1,
      uniqueItems: true,
      description: 'Several formats in one call, instead of type',
    }),
  ),
  includeTags: Type.Optional(Selectors('keep (all others dropped)')),
  excludeTags: Type.Optional(Selectors('drop')),
  includeComments: Type.Optional(
    Type.Boolean({
      description:
        "Keep readers' comment threads under a story in the main content; default false (left out, as trafilatura does). Forum threads and Q&A pages keep their replies either way",
    }),
  ),
  method: Type.Optional(MethodChoice),
  maxAge: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_AGE_MS,
      description:
        'Milliseconds: a cached result of the same request at most this old is served (charged the cached price) instead of fetching; 0 always fetches. Default WEBDATA_CACHE_MAX_AGE_MS (0). Requests with actions are never served from the cache',
    }),
  ),
  storeInCache: Type.Optional(
    Type.Boolean({
      description: 'Keep a successful result for later requests with maxAge; default true',
    }),
  ),
};

/** Fields a single scrape accepts, shared with batch items (which add nothing of their own). */
export const scrapeFields = {
  type: Type.Optional(Format),
  ...pageFields,
  onlyMainContent: Type.Optional(
    Type.Boolean({ description: 'Remove navigation, ads and footers; default true' }),
  ),
  extractMetadata: Type.Optional(Type.Boolean({ description: 'Add page metadata; default false' })),
  summary: Type.Optional(SummaryObject),
  extract: Type.Optional(ExtractObject),
  pdfStrategy: Type.Optional(PdfStrategy),
  actions: Type.Optional(Actions),
  proxy: Type.Optional(ProxyObject),
};

/** How pages are scraped when another operation scrapes them for you (a search's hits). */
export const PageScrapeOptions = Type.Object(
  {
    type: Type.Optional(Format),
    ...pageFields,
    onlyMainContent: scrapeFields.onlyMainContent,
    extractMetadata: scrapeFields.extractMetadata,
    pdfStrategy: scrapeFields.pdfStrategy,
  },
  { additionalProperties: false },
);
export type PageScrapeOptions = Static<typeof PageScrapeOptions>;

export const ScrapeSingleBody = Type.Object(
  { url: Type.String({ minLength: 1 }), ...scrapeFields },
  { additionalProperties: false },
);
export type ScrapeSingleBody = Static<typeof ScrapeSingleBody>;

export const ScrapeBatchBody = Type.Object(
  {
    urls: Type.Array(Type.Union([Type.String({ minLength: 1 }), ScrapeSingleBody]), {
      minItems: 1,
    }),
    type: Type.Optional(Format),
    onlyMainContent: Type.Optional(Type.Boolean()),
    extractMetadata: Type.Optional(Type.Boolean()),
    summary: Type.Optional(SummaryObject),
    extract: Type.Optional(ExtractObject),
    pdfStrategy: Type.Optional(PdfStrategy),
    proxy: Type.Optional(ProxyObject),
    ...pageFields,
  },
  { additionalProperties: false },
);
export type ScrapeBatchBody = Static<typeof ScrapeBatchBody>;
