import { type Static, Type } from 'typebox';
import { BatchOf, Cost, LiteralUnion, Timestamp } from './common.ts';

/** The metadata a result carries when `extractMetadata` was asked for: what the page says and how it was served. */
export const ResultMetadata = Type.Object({
  title: Type.String(),
  description: Type.String(),
  canonicalUrl: Type.String(),
  finalUrl: Type.String(),
  contentType: Type.String(),
  contentLength: Type.Number(),
});
export type ResultMetadata = Static<typeof ResultMetadata>;

/** Result fields the summary and the extraction add to a page (a fetch result or a breakpoint). */
export const pageExtraFields = {
  content: Type.Optional(Type.String({ description: 'Summary (when a summary query was given)' })),
  summarizer: Type.Optional(
    Type.Union([Type.Literal('llm'), Type.Literal('extractive')], {
      description: 'Who wrote `content`',
    }),
  ),
  json: Type.Optional(Type.Unknown({ description: 'Extracted object (when `extract` was given)' })),
  warning: Type.Optional(
    Type.String({
      description:
        "Set when part of the answer was left out: page text to fit the model's window, or a crawl page's links when matching them to the path patterns ran out of time",
    }),
  ),
  finishReason: Type.Optional(
    Type.String({
      description:
        "The model's finish reason when it was not a normal stop (length, content_filter, refusal)",
    }),
  ),
};
const PageExtraFields = Type.Object(pageExtraFields);
export type PageExtraFields = Static<typeof PageExtraFields>;

/** The ladder's browser rungs, cheapest first; a browser sequence runs on one of them. */
export const BROWSER_RUNGS = ['browser', 'browser-stealth', 'browser-firefox'] as const;

/** Every way a page can be acquired, in the order the ladder tries them. */
export const AcquireMethod = LiteralUnion(['http', ...BROWSER_RUNGS], {
  description:
    'How the page was acquired: plain HTTP, the headless browser, browser-stealth, or headless Firefox (beyond the spec; absent when nothing was acquired)',
});
export type AcquireMethod = Static<typeof AcquireMethod>;

/** The engine a caller asks for: one rung of the ladder, or `auto` to climb it. */
export const MethodChoice = Type.Union([Type.Literal('auto'), ...AcquireMethod.anyOf], {
  description:
    'Engine to acquire the page with (beyond the spec). auto (default): plain HTTP, then the headless browser, then browser-stealth, then headless Firefox, each only when the one before could not get the page. http, browser, browser-stealth or browser-firefox: that engine alone, never another; a page it cannot get fails. http runs no actions. Priced as any fetch',
});
export type MethodChoice = Static<typeof MethodChoice>;

/** How the page compares with the last scrape of it by the same key and tag; see docs/cache.md. */
export const ChangeTracking = Type.Object({
  changeStatus: Type.Union(
    [Type.Literal('new'), Type.Literal('same'), Type.Literal('changed'), Type.Literal('removed')],
    {
      description:
        'new: no earlier scrape; same: only whitespace or volatile parts (times, dates, counters) differ; changed; removed: the page now answers 404 or 410',
    },
  ),
  previousScrapeAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  visibility: Type.Union([Type.Literal('visible'), Type.Literal('hidden')], {
    description: 'visible: the page answered; hidden: it is gone (removed)',
  }),
  diff: Type.Optional(
    Type.Object(
      { text: Type.String({ description: 'Unified diff of the main-content markdown' }) },
      { description: 'With modes ["git-diff"], when changed' },
    ),
  ),
  json: Type.Optional(
    Type.Record(Type.String(), Type.Object({ previous: Type.Unknown(), current: Type.Unknown() }), {
      description:
        'With modes ["json"], after an earlier scrape: the fields of the extraction that changed since it, by dotted path (array items by index), each with its previous and current value; {} when none did',
    }),
  ),
  tag: Type.Optional(Type.String()),
});
export type ChangeTracking = Static<typeof ChangeTracking>;

/** Whether a result was served from the cache; see docs/cache.md. */
export const CacheState = Type.Union([Type.Literal('hit'), Type.Literal('miss')], {
  description:
    'hit: served from the cache, charged the cached price, no request to the origin; miss: fetched',
});
export type CacheState = Static<typeof CacheState>;

/** One card of a listing page (the `listing` format); see docs/listing.md. */
export const ListingItem = Type.Object({
  name: Type.String({ description: "The card's title: its heading, else its link's text" }),
  url: Type.String({ description: "The card's link, absolute" }),
  price: Type.Optional(
    Type.Number({ description: 'The price shown (a struck-out old price is passed over)' }),
  ),
  currency: Type.Optional(
    Type.String({
      description: 'ISO 4217 code, when the page names one currency ($, ¥ and kr name several)',
    }),
  ),
  image: Type.Optional(
    Type.String({ description: "The card's picture, absolute, lazy and srcset sources resolved" }),
  ),
  description: Type.Optional(
    Type.String({ description: "The card's own text beside its name (teaser, summary)" }),
  ),
});
export type ListingItem = Static<typeof ListingItem>;

/** One page fetched: a scrape's answer, a batch item, a search hit's page, a crawl item. */
export const FetchResult = Type.Object({
  url: Type.String(),
  success: Type.Boolean(),
  markdown: Type.Optional(Type.String()),
  html: Type.Optional(Type.String()),
  rawHtml: Type.Optional(Type.String()),
  links: Type.Optional(Type.Array(Type.String())),
  listing: Type.Optional(
    Type.Array(ListingItem, {
      description:
        "The page's repeated cards (products, results, entries), at most 500; [] when it has none",
    }),
  ),
  statusCode: Type.Number(),
  metadata: Type.Optional(ResultMetadata),
  ...pageExtraFields,
  method: Type.Optional(AcquireMethod),
  cacheState: Type.Optional(CacheState),
  cachedAt: Type.Optional(
    Type.String({
      format: 'date-time',
      description:
        'When the content was fetched from the origin: earlier than timestamp on a cache hit; absent on a failure',
    }),
  ),
  changeTracking: Type.Optional(ChangeTracking),
  timestamp: Timestamp,
  cost: Cost,
  error: Type.Optional(Type.String()),
});
export type FetchResult = Static<typeof FetchResult>;

export const BatchResult = BatchOf(FetchResult, {});
export type BatchResult = Static<typeof BatchResult>;
