import type { Static } from 'typebox';
import type { Config } from '../config.ts';
import { SelectorError, selectTags } from '../content/index.ts';
import type { AcquireMethod } from '../contract/index.ts';
import {
  crawlStartKey,
  MAX_URL_CHARS,
  PATH_MATCH_DEADLINE_MS,
  PathMatchDeadlineError,
  pathPatternProblems,
} from '../discover/index.ts';
import type {
  BatchInput,
  ChangeTrackingRequest,
  CrawlSettings,
  ExtractInput,
  MapInput,
  ScrapeInput,
  ScrapeOptions,
  SequenceInput,
} from '../ops/index.ts';
import { actionsRefusal, methodsFor, type PageFormat } from '../page/index.ts';
import {
  checkWebhookHost,
  checkWebhookTarget,
  WEBHOOK_EVENTS,
  type WebhookTarget,
  WebhookTargetError,
} from '../webhooks/index.ts';
import { badRequest } from './errors.ts';
import { checkSteps } from './schemas/actions.ts';
import { checkSummary, requireHttpUrl, requireProxy } from './schemas/common.ts';
import { CRAWL_DEFAULT_DEPTH, CRAWL_DEFAULT_LIMIT, type CrawlBody } from './schemas/crawl.ts';
import { type ExtractBody, extractRequest, usableSchema } from './schemas/extract.ts';
import type { MapBody } from './schemas/map.ts';
import type { PageScrapeOptions, ScrapeBatchBody, ScrapeSingleBody } from './schemas/scrape.ts';
import type { SequenceBody } from './schemas/sequence.ts';
import type { WebhookBody } from './schemas/webhooks.ts';

/**
 * Request bodies to operation inputs, with the checks a schema cannot express (absolute http(s)
 * URLs, step rules, a usable extraction, a configured proxy for the country). Shared
 * by each sync route and its async twin, so both accept exactly the same requests. `prefix`
 * names the field path inside a batch.
 */
export async function scrapeInput(
  body: ScrapeSingleBody,
  config: Config,
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
    extract: await extractRequest(body.extract, config, `${prefix}extract`),
    proxy: requireProxy(config, body.proxy, prefix),
  };
}

type PageFieldsBody = Pick<ScrapeSingleBody, 'type' | 'formats' | 'includeTags' | 'excludeTags'>;

/** `type` and `formats` say the same thing two ways; both at once would leave one ignored. */
function checkPageFields(body: PageFieldsBody, prefix: string): void {
  if (body.type !== undefined && body.formats !== undefined)
    throw badRequest(`${prefix}formats`, 'give either type or formats, not both');
  for (const field of ['includeTags', 'excludeTags'] as const) {
    for (const [i, selector] of (body[field] ?? []).entries()) {
      try {
        selectTags('<p></p>', [selector]);
      } catch (err) {
        if (err instanceof SelectorError) throw badRequest(`${prefix}${field}[${i}]`, err.message);
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
  if (refusal) throw badRequest(field, refusal);
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
    if (changeTracking) throw badRequest(field, 'changeTracking is given twice');
    const modes = entry.modes ?? [];
    const json = modes.indexOf('json');
    if (json >= 0 && !extraction)
      throw badRequest(
        `${field}.modes[${json}]`,
        'the json mode compares the fields of an extraction: ask for one with extract (see docs/cache.md)',
      );
    changeTracking = {
      modes: [...modes],
      ...(entry.tag !== undefined ? { tag: entry.tag } : {}),
    };
  }
  if (changeTracking && !pages.includes('markdown'))
    throw badRequest(
      `${prefix}formats`,
      'changeTracking compares markdown: add markdown to formats',
    );
  if (pages.length === 0) throw badRequest(`${prefix}formats`, 'give at least one page format');
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
  limit: { max: number; what: string },
): Promise<BatchInput> {
  if (body.urls.length > limit.max)
    throw badRequest(
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
    extract: await extractRequest(body.extract, config, 'extract'),
    proxy,
  };
}

export async function sequenceInput(
  body: Static<typeof SequenceBody>,
  config: Config,
  prefix = '',
): Promise<SequenceInput> {
  checkSteps(body.steps, `${prefix}steps`);
  checkSummary(body.summary, `${prefix}summary`);
  if (body.method === 'http')
    throw badRequest(
      `${prefix}method`,
      'a sequence runs its steps in a browser: ask for browser, browser-stealth or auto',
    );
  const methods = body.method && methodsFor(body.method);
  return {
    ...(methods ? { methods } : {}),
    startUrl: requireHttpUrl(body.startUrl, `${prefix}startUrl`),
    steps: body.steps,
    type: body.type,
    onlyMainContent: body.onlyMainContent,
    includeComments: body.includeComments,
    extractMetadata: body.extractMetadata,
    summary: body.summary,
    extract: await extractRequest(body.extract, config, `${prefix}extract`),
    proxy: requireProxy(config, body.proxy, prefix),
  };
}

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
