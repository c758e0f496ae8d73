import { type Static, Type } from 'typebox';
import type { Config } from '../config.ts';
import { SelectorError, selectTags } from '../content/index.ts';
import { type AcquireMethod, Actions, MethodChoice } from '../contract/index.ts';
import { actionsRefusal, methodsFor, PAGE_FORMATS, type PageFormat } from '../page/index.ts';
import type { BatchInput } from './batch.ts';
import type { ChangeTrackingRequest } from './change-tracking.ts';
import { ExtractObject, extractRequest } from './extract-input.ts';
import { InputError } from './input-error.ts';
import {
  checkSteps,
  checkSummary,
  Format,
  MAX_SELECTOR_CHARS,
  ProxyObject,
  requireHttpUrl,
  requireProxy,
  SummaryObject,
  urlBody,
} from './input-fields.ts';
import type { ScrapeInput, ScrapeOptions } from './scrape.ts';

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
        "Keep readers' comment threads under a story, and customers' reviews on a product page, in the main content; default false (left out, as trafilatura does). Forum threads and Q&A pages keep their replies either way",
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

export const ScrapeSingleBody = urlBody(scrapeFields);
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

/**
 * A scrape body to the scrape's input, with the checks a schema cannot express (absolute http(s)
 * URLs, step rules, a usable extraction, a configured proxy for the country), each an InputError
 * naming the field. Shared by every door (the sync route, its async twin, the Firecrawl routes),
 * so all accept exactly the same requests. `prefix` names the field path inside a batch.
 */
export async function scrapeInput(
  body: ScrapeSingleBody,
  config: Config,
  caller: string,
  prefix = '',
  extraction = body.extract !== undefined,
): Promise<ScrapeInput> {
  checkSteps(body.actions, `${prefix}actions`);
  checkSummary(body.summary, `${prefix}summary`);
  const options = pageScrapeOptions(body, prefix, extraction);
  checkMethodActions(options.methods, body.actions, `${prefix}method`);
  return {
    ...options,
    url: requireHttpUrl(body.url, `${prefix}url`),
    actions: body.actions,
    summary: body.summary,
    extract: await extractRequest(body.extract, config, caller, `${prefix}extract`),
    proxy: requireProxy(config, body.proxy, prefix),
  };
}

type PageFieldsBody = Pick<ScrapeSingleBody, 'type' | 'formats' | 'includeTags' | 'excludeTags'>;

/** `type` and `formats` say the same thing two ways; both at once would leave one ignored. */
function checkPageFields(body: PageFieldsBody, prefix: string): void {
  if (body.type !== undefined && body.formats !== undefined)
    throw new InputError(`${prefix}formats`, 'give either type or formats, not both');
  for (const field of ['includeTags', 'excludeTags'] as const) {
    for (const [i, selector] of (body[field] ?? []).entries()) {
      try {
        selectTags('<p></p>', [selector]);
      } catch (err) {
        if (err instanceof SelectorError)
          throw new InputError(`${prefix}${field}[${i}]`, err.message);
        throw err;
      }
    }
  }
}

/** Actions need a browser: asking for a method without one and giving actions is a 400 saying so. */
function checkMethodActions(
  methods: readonly AcquireMethod[] | undefined,
  actions: readonly unknown[] | undefined,
  field: string,
): void {
  if (!methods || !actions?.length) return;
  const refusal = actionsRefusal(methods);
  if (refusal) throw new InputError(field, refusal);
}

/**
 * The page formats of a `formats` list and its change-tracking entry, checked: tracking compares
 * markdown, so markdown must be asked for; its `json` mode compares the request's extraction, so
 * one must be asked for (`extraction`).
 */
function splitFormats(
  formats: PageScrapeOptions['formats'],
  prefix: string,
  extraction: boolean,
): { formats?: PageFormat[]; changeTracking?: ChangeTrackingRequest } {
  if (formats === undefined) return {};
  const pages: PageFormat[] = [];
  let changeTracking: ChangeTrackingRequest | undefined;
  for (const [i, entry] of formats.entries()) {
    if (typeof entry === 'string') {
      pages.push(entry);
      continue;
    }
    const field = `${prefix}formats[${i}]`;
    if (changeTracking) throw new InputError(field, 'changeTracking is given twice');
    const modes = entry.modes ?? [];
    const json = modes.indexOf('json');
    if (json >= 0 && !extraction)
      throw new InputError(
        `${field}.modes[${json}]`,
        'the json mode compares the fields of an extraction: ask for one with extract (see docs/cache.md)',
      );
    changeTracking = {
      modes: [...modes],
      ...(entry.tag !== undefined ? { tag: entry.tag } : {}),
    };
  }
  if (changeTracking && !pages.includes('markdown'))
    throw new InputError(
      `${prefix}formats`,
      'changeTracking compares markdown: add markdown to formats',
    );
  if (pages.length === 0) throw new InputError(`${prefix}formats`, 'give at least one page format');
  return { formats: pages, ...(changeTracking ? { changeTracking } : {}) };
}

/** How to turn a page into content, as every body that scrapes gives it (a search's hits, a batch, a crawl's pages), checked. */
export function pageScrapeOptions(
  body: PageScrapeOptions,
  prefix: string,
  extraction = false,
): ScrapeOptions {
  checkPageFields(body, prefix);
  return {
    type: body.type,
    ...splitFormats(body.formats, prefix, extraction),
    includeTags: body.includeTags,
    excludeTags: body.excludeTags,
    includeComments: body.includeComments,
    onlyMainContent: body.onlyMainContent,
    extractMetadata: body.extractMetadata,
    pdfStrategy: body.pdfStrategy,
    ...(body.method ? { methods: methodsFor(body.method) } : {}),
    maxAge: body.maxAge,
    storeInCache: body.storeInCache,
  };
}

export async function batchInput(
  body: ScrapeBatchBody,
  config: Config,
  caller: string,
  limit: { max: number; what: string },
): Promise<BatchInput> {
  if (body.urls.length > limit.max)
    throw new InputError(
      'urls',
      `at most ${limit.max} URLs per ${limit.what} (got ${body.urls.length})`,
    );
  checkSummary(body.summary, 'summary');
  const extraction = body.extract !== undefined;
  const options = pageScrapeOptions(body, '', extraction);
  const proxy = requireProxy(config, body.proxy);
  // One by one: the first bad item is the one named, as when they were checked in line.
  const urls: BatchInput['urls'] = [];
  for (const [i, item] of body.urls.entries()) {
    if (typeof item === 'string') {
      urls.push({ url: requireHttpUrl(item, `urls[${i}]`) });
      continue;
    }
    const input = await scrapeInput(
      item,
      config,
      caller,
      `urls[${i}].`,
      extraction || item.extract !== undefined,
    );
    // The batch's method applies to an item that names none: its actions must be runnable there.
    if (!input.methods) checkMethodActions(options.methods, input.actions, 'method');
    urls.push(input);
  }
  return {
    ...options,
    urls,
    summary: body.summary,
    extract: await extractRequest(body.extract, config, caller, 'extract'),
    proxy,
  };
}
