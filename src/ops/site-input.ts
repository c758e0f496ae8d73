/**
 * The inputs of the two operations that walk a site from a start URL, map and crawl: their shapes
 * and parsers, each mistake an InputError naming the field.
 */
import { type Static, Type } from 'typebox';
import type { Config } from '../config.ts';
import {
  crawlStartKey,
  MAX_URL_CHARS,
  PATH_MATCH_DEADLINE_MS,
  PathMatchDeadlineError,
  pathPatternProblems,
} from '../discover/index.ts';
import type { CrawlSettings } from './crawl.ts';
import { extractRequest } from './extract-input.ts';
import { InputError } from './input-error.ts';
import { checkSummary, requireHttpUrl, requireProxy } from './input-fields.ts';
import type { MapInput } from './map.ts';
import { pageScrapeOptions, scrapeFields } from './scrape-input.ts';

/** Longest map `search`: its words are matched against every URL found, on every door. */
export const MAP_MAX_SEARCH_CHARS = 500;

export const MapBody = Type.Object(
  {
    url: Type.String({ minLength: 1, description: 'Base URL of the site' }),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 5000, description: 'Most URLs returned; default 100' }),
    ),
    search: Type.Optional(
      Type.String({
        maxLength: MAP_MAX_SEARCH_CHARS,
        description: 'Keyword to filter and rank URLs by relevance',
      }),
    ),
    includeSubdomains: Type.Optional(
      Type.Boolean({
        description: 'Include other hosts of the same registrable domain; default false',
      }),
    ),
    ignoreQueryParameters: Type.Optional(
      Type.Boolean({ description: 'Drop query strings before deduplicating; default true' }),
    ),
  },
  { additionalProperties: false },
);
export type MapBody = Static<typeof MapBody>;

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

/** A crawl's own fields, and how each of its pages is scraped; the async start adds a webhook. */
export const CrawlFields = Type.Object(
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
  },
  { additionalProperties: false },
);
export type CrawlFields = Static<typeof CrawlFields>;

/**
 * The start URL of a map or crawl. Both report and follow only URLs without credentials in them
 * and no longer than MAX_URL_CHARS; a start URL out of those bounds would match none of its own links.
 */
function siteStartUrl(raw: string, what: 'map' | 'crawl'): string {
  const url = requireHttpUrl(raw, 'url');
  const { username, password } = new URL(url);
  if (username || password)
    throw new InputError(
      'url',
      `URLs with credentials (user:password@) are not supported by ${what}`,
    );
  if (crawlStartKey(url, false) === undefined)
    throw new InputError('url', `at most ${MAX_URL_CHARS} characters once normalised`);
  return url;
}

export function mapInput(body: MapBody): MapInput {
  const url = siteStartUrl(body.url, 'map');
  return {
    url,
    limit: body.limit,
    search: body.search,
    includeSubdomains: body.includeSubdomains,
    ignoreQueryParameters: body.ignoreQueryParameters,
  };
}

/**
 * A crawl's path patterns, each one RE2 accepts within the compiled-size cap, or a 400 naming it.
 * One at a time, each under the matcher's deadline, so the one too costly to compile is named.
 */
async function patterns(
  list: string[] | undefined,
  caller: string,
  field: string,
): Promise<string[]> {
  const given = list ?? [];
  for (const [i, pattern] of given.entries()) {
    let problem: string | null | undefined;
    try {
      [problem] = await pathPatternProblems([pattern], caller);
    } catch (err) {
      if (!(err instanceof PathMatchDeadlineError)) throw err;
      problem = `took longer than ${PATH_MATCH_DEADLINE_MS} ms to compile: use smaller repeat counts`;
    }
    if (problem) throw new InputError(`${field}[${i}]`, problem);
  }
  return given;
}

/** A crawl body to the settings each of its pages carries, with defaults filled in; and the start URL's dedupe key. */
export async function crawlSettings(
  body: CrawlFields,
  config: Config,
  caller: string,
): Promise<{ settings: CrawlSettings; startKey: string }> {
  const url = siteStartUrl(body.url, 'crawl');
  checkSummary(body.summary, 'summary');
  const options = pageScrapeOptions(body, '');
  const ignoreQueryParameters = body.ignoreQueryParameters ?? false;
  const settings: CrawlSettings = {
    url,
    limit: body.limit ?? CRAWL_DEFAULT_LIMIT,
    maxDepth: body.maxDepth ?? CRAWL_DEFAULT_DEPTH,
    includePaths: await patterns(body.includePaths, caller, 'includePaths'),
    excludePaths: await patterns(body.excludePaths, caller, 'excludePaths'),
    includeSubdomains: body.includeSubdomains ?? false,
    ignoreQueryParameters,
    stayUnderStartPath: body.stayUnderStartPath ?? false,
    sitemap: body.sitemap ?? 'include',
    ignoreRobotsTxt: body.ignoreRobotsTxt ?? false,
    delayMs: body.delayMs ?? 0,
    scrape: {
      ...options,
      summary: body.summary,
      extract: await extractRequest(body.extract, config, caller, 'extract'),
      proxy: requireProxy(config, body.proxy),
    },
  };
  return { settings, startKey: crawlStartKey(url, ignoreQueryParameters)! };
}
