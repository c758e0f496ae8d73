import type { Config } from '../config.ts';
import {
  crawlStartKey,
  MAX_URL_CHARS,
  PATH_MATCH_DEADLINE_MS,
  PathMatchDeadlineError,
  pathPatternProblems,
} from '../discover/index.ts';
import {
  type CrawlSettings,
  checkSummary,
  type ExtractInput,
  extractRequest,
  type MapInput,
  pageScrapeOptions,
  requireHttpUrl,
  requireProxy,
  usableSchema,
} from '../ops/index.ts';
import {
  checkWebhookHost,
  checkWebhookTarget,
  WEBHOOK_EVENTS,
  type WebhookTarget,
  WebhookTargetError,
} from '../webhooks/index.ts';
import { badRequest } from './errors.ts';
import { CRAWL_DEFAULT_DEPTH, CRAWL_DEFAULT_LIMIT, type CrawlBody } from './schemas/crawl.ts';
import type { ExtractBody } from './schemas/extract.ts';
import type { MapBody } from './schemas/map.ts';
import type { WebhookBody } from './schemas/webhooks.ts';

/**
 * The start URL of a map or crawl. Both report and follow only URLs without credentials in them
 * and no longer than MAX_URL_CHARS; a start URL out of those bounds would match none of its own links.
 */
function siteStartUrl(raw: string, what: 'map' | 'crawl'): string {
  const url = requireHttpUrl(raw, 'url');
  const { username, password } = new URL(url);
  if (username || password)
    throw badRequest('url', `URLs with credentials (user:password@) are not supported by ${what}`);
  if (crawlStartKey(url, false) === undefined)
    throw badRequest('url', `at most ${MAX_URL_CHARS} characters once normalised`);
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
 * A webhook as the deliverer will use it, refused up front (400 naming the field) by the
 * deliverer's own check (scheme, credentials, port, the SSRF guard, header names and values),
 * and when its host resolves to a refused address now. Every delivery is checked again, as a
 * name can resolve elsewhere later.
 */
export async function webhookTarget(
  body: WebhookBody | undefined,
  config: Config,
): Promise<WebhookTarget | undefined> {
  if (!body) return undefined;
  const headers = body.headers ?? {};
  try {
    const url = checkWebhookTarget({ url: body.url, headers }, config.network);
    await checkWebhookHost(url, config.network);
    return { url: url.href, headers, events: body.events ?? [...WEBHOOK_EVENTS] };
  } catch (err) {
    if (err instanceof WebhookTargetError) throw badRequest(`webhook.${err.field}`, err.message);
    throw err;
  }
}

/**
 * A crawl's path patterns, each one RE2 accepts within the compiled-size cap, or a 400 naming it.
 * One at a time, each under the matcher's deadline, so the one too costly to compile is named.
 */
async function patterns(list: string[] | undefined, field: string): Promise<string[]> {
  const given = list ?? [];
  for (const [i, pattern] of given.entries()) {
    let problem: string | null | undefined;
    try {
      [problem] = await pathPatternProblems([pattern]);
    } catch (err) {
      if (!(err instanceof PathMatchDeadlineError)) throw err;
      problem = `took longer than ${PATH_MATCH_DEADLINE_MS} ms to compile: use smaller repeat counts`;
    }
    if (problem) throw badRequest(`${field}[${i}]`, problem);
  }
  return given;
}

/** A crawl body to the settings each of its pages carries, with defaults filled in; and the start URL's dedupe key. */
export async function crawlSettings(
  body: CrawlBody,
  config: Config,
): Promise<{ settings: CrawlSettings; startKey: string }> {
  const url = siteStartUrl(body.url, 'crawl');
  checkSummary(body.summary, 'summary');
  const options = pageScrapeOptions(body, '');
  const ignoreQueryParameters = body.ignoreQueryParameters ?? false;
  const settings: CrawlSettings = {
    url,
    limit: body.limit ?? CRAWL_DEFAULT_LIMIT,
    maxDepth: body.maxDepth ?? CRAWL_DEFAULT_DEPTH,
    includePaths: await patterns(body.includePaths, 'includePaths'),
    excludePaths: await patterns(body.excludePaths, 'excludePaths'),
    includeSubdomains: body.includeSubdomains ?? false,
    ignoreQueryParameters,
    stayUnderStartPath: body.stayUnderStartPath ?? false,
    sitemap: body.sitemap ?? 'include',
    ignoreRobotsTxt: body.ignoreRobotsTxt ?? false,
    delayMs: body.delayMs ?? 0,
    scrape: {
      ...options,
      summary: body.summary,
      extract: await extractRequest(body.extract, config, 'extract'),
      proxy: requireProxy(config, body.proxy),
    },
  };
  return { settings, startKey: crawlStartKey(url, ignoreQueryParameters)! };
}

/** A POST /v1/extract body: absolute URLs within the limit, a usable schema, a configured LLM. */
export async function extractInput(
  body: ExtractBody,
  config: Config,
  maxUrls: number,
): Promise<ExtractInput> {
  if (body.urls.length > maxUrls)
    throw badRequest('urls', `at most ${maxUrls} URLs per extraction (got ${body.urls.length})`);
  const urls = body.urls.map((u, i) => requireHttpUrl(u, `urls[${i}]`));
  const schema = await usableSchema(body.schema, config, 'schema');
  return { urls, schema, ...(body.prompt?.trim() ? { prompt: body.prompt } : {}) };
}
