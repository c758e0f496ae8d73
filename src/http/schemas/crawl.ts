import { type Static, Type } from 'typebox';
import { scrapeFields } from '../../ops/index.ts';
import { WebhookBody } from './webhooks.ts';

export const CRAWL_MAX_LIMIT = 10_000;
export const CRAWL_DEFAULT_LIMIT = 100;
export const CRAWL_MAX_DEPTH = 100;
export const CRAWL_DEFAULT_DEPTH = 10;
export const CRAWL_MAX_DELAY_MS = 60_000;
const MAX_PATTERNS = 50;

export const Patterns = (what: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 500 }), {
    maxItems: MAX_PATTERNS,
    description: `Regular expressions (RE2 syntax, matched in linear time) searched for in the URL path; ${what}`,
  });

const { actions: _actions, ...pageFields } = scrapeFields;

export const CrawlBody = Type.Object(
  {
    url: Type.String({ minLength: 1, description: 'Start URL; the crawl stays on its site' }),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: CRAWL_MAX_LIMIT,
        description: `Most pages fetched; default ${CRAWL_DEFAULT_LIMIT}`,
      }),
    ),
    maxDepth: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: CRAWL_MAX_DEPTH,
        description: `Most link hops from the start URL (sitemap entries are depth 1); default ${CRAWL_DEFAULT_DEPTH}`,
      }),
    ),
    includePaths: Type.Optional(
      Patterns('when given, only matching pages are crawled (the start URL always is)'),
    ),
    excludePaths: Type.Optional(Patterns('matching pages are not crawled')),
    includeSubdomains: Type.Optional(
      Type.Boolean({
        description: 'Follow other hosts of the same registrable domain; default false',
      }),
    ),
    ignoreQueryParameters: Type.Optional(
      Type.Boolean({
        description: 'Treat URLs differing only in their query as one page; default false',
      }),
    ),
    stayUnderStartPath: Type.Optional(
      Type.Boolean({
        description:
          "Follow only pages at or below the start URL's path (/docs: /docs/a, not /blog); default false",
      }),
    ),
    sitemap: Type.Optional(
      Type.Union([Type.Literal('include'), Type.Literal('skip'), Type.Literal('only')], {
        description:
          'include: sitemaps and links (default); skip: links only; only: sitemap entries, no links',
      }),
    ),
    ignoreRobotsTxt: Type.Optional(
      Type.Boolean({
        description: 'Crawl pages robots.txt disallows, without its Crawl-delay; default false',
      }),
    ),
    delayMs: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: CRAWL_MAX_DELAY_MS,
        description:
          "Least time between two requests to a host; robots.txt's Crawl-delay wins when longer. Default 0",
      }),
    ),
    ...pageFields,
    webhook: Type.Optional(WebhookBody),
  },
  { additionalProperties: false },
);
export type CrawlBody = Static<typeof CrawlBody>;
