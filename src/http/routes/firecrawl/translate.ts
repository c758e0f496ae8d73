import type { Config } from '../../../config.ts';
import { type AcquireMethod, type Action, SCREENSHOT_VIEWPORT } from '../../../contract/index.ts';
import type { ExtractRequest } from '../../../extract/index.ts';
import type { CrawlFields, ScrapeInput } from '../../../ops/index.ts';
import { extractRequest, scrapeInput } from '../../../ops/index.ts';
import { PAGE_FORMATS, type PageFormat } from '../../../page/index.ts';
import { badRequest } from '../../errors.ts';
import type { ScrapeOptions, V2CrawlBody } from './schemas.ts';

/**
 * Firecrawl v2 requests to this server's operation inputs (the results go back in document.ts).
 * Pure mapping: every check that is not about Firecrawl's shapes is the native API's own
 * (scrapeInput), so both accept the same pages, selectors and actions.
 */

/** What the summary format asks the LLM: Firecrawl's summary format carries no instruction. */
export const SUMMARY_QUERY = 'Summarise this page in a few sentences.';

const PAGE_FORMAT_NAMES = new Set<string>(PAGE_FORMATS);

export interface ScreenshotRequest {
  fullPage: boolean;
  width?: number;
  height?: number;
}

/** A Firecrawl scrape, as the native scrape plus what has to run beside it. */
export interface CompatScrape {
  input: ScrapeInput;
  /** The formats to return, as Firecrawl names them. */
  formats: Set<string>;
  screenshot?: ScreenshotRequest;
}

interface Formats {
  formats: Set<string>;
  screenshot?: ScreenshotRequest;
  /** The changeTracking format entry, as the native one. */
  changeTracking?: { type: 'changeTracking'; modes?: Array<'git-diff' | 'json'>; tag?: string };
  /** The `json` format as the native schema extraction. */
  extract?: ExtractRequest;
}

type FormatEntry = {
  type: string;
  modes?: unknown;
  tag?: unknown;
  fullPage?: unknown;
  viewport?: unknown;
  schema?: unknown;
  prompt?: unknown;
};

/**
 * Firecrawl's `json` format (a format object with `schema` and `prompt`, or the plain format with
 * `jsonOptions`) is the native JSON Schema extraction, checked as the native `extract` is. Without a
 * schema Firecrawl lets the model choose the shape; this server only fills a schema.
 */
async function jsonExtract(
  entry: FormatEntry,
  options: ScrapeOptions,
  config: Config,
  caller: string,
  field: string,
  prefix: string,
): Promise<ExtractRequest> {
  const inEntry = entry.schema !== undefined || entry.prompt !== undefined;
  const [schema, prompt, at] = inEntry
    ? [entry.schema, entry.prompt, field]
    : [options.jsonOptions?.schema, options.jsonOptions?.prompt, `${prefix}jsonOptions`];
  if (schema === undefined)
    throw badRequest(
      `${at}.schema`,
      'this server fills a JSON Schema: give the json format a `schema` (a prompt alone is not supported)',
    );
  if (prompt !== undefined && typeof prompt !== 'string')
    throw badRequest(`${at}.prompt`, 'must be a string');
  return (await extractRequest(
    { schema, ...(prompt !== undefined ? { prompt } : {}) },
    config,
    caller,
    at,
  ))!;
}

/** A Firecrawl screenshot viewport within the native screenshot's bounds, each side named when out. */
function viewportOf(viewport: unknown, field: string): { width?: number; height?: number } {
  if (viewport === undefined) return {};
  if (typeof viewport !== 'object' || viewport === null || Array.isArray(viewport))
    throw badRequest(field, 'must be an object with width and height');
  const out: { width?: number; height?: number } = {};
  for (const side of ['width', 'height'] as const) {
    const value = (viewport as Record<string, unknown>)[side];
    if (value === undefined) continue;
    const { minimum, maximum } = SCREENSHOT_VIEWPORT[side];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < minimum || value > maximum)
      throw badRequest(`${field}.${side}`, `must be an integer from ${minimum} to ${maximum}`);
    out[side] = value;
  }
  return out;
}

async function formatsOf(
  options: ScrapeOptions,
  config: Config,
  caller: string,
  prefix: string,
): Promise<Formats> {
  const formats = new Set<string>();
  let screenshot: ScreenshotRequest | undefined;
  let extract: ExtractRequest | undefined;
  let changeTracking: Formats['changeTracking'];
  let tracking: { entry: FormatEntry; field: string } | undefined;
  for (const [i, raw] of (options.formats ?? ['markdown']).entries()) {
    const entry: FormatEntry = typeof raw === 'string' ? { type: raw } : raw;
    const field = `${prefix}formats[${i}]`;
    if (PAGE_FORMAT_NAMES.has(entry.type) || entry.type === 'summary') formats.add(entry.type);
    else if (entry.type === 'json') {
      formats.add('json');
      extract = await jsonExtract(entry, options, config, caller, field, prefix);
    } else if (entry.type === 'changeTracking') {
      formats.add('changeTracking');
      changeTracking = { type: 'changeTracking', ...changeTrackingOf(entry, field) };
      tracking = { entry, field };
    } else if (entry.type === 'screenshot' || entry.type === 'screenshot@fullPage') {
      formats.add('screenshot');
      screenshot = {
        fullPage: entry.type === 'screenshot@fullPage' || entry.fullPage === true,
        ...viewportOf(entry.viewport, `${field}.viewport`),
      };
    } else
      throw badRequest(
        field,
        `the ${entry.type} format is not supported by this server (see docs/firecrawl.md)`,
      );
  }
  // Firecrawl's json mode may carry its own schema: the extraction compared, when no json format
  // asks for one.
  const own =
    tracking && (tracking.entry.schema !== undefined || tracking.entry.prompt !== undefined);
  if (tracking && own && !extract && changeTracking?.modes?.includes('json'))
    extract = await jsonExtract(tracking.entry, options, config, caller, tracking.field, prefix);
  return {
    formats,
    ...(screenshot ? { screenshot } : {}),
    ...(extract ? { extract } : {}),
    ...(changeTracking ? { changeTracking } : {}),
  };
}

/** A changeTracking format entry's modes and tag, each named when malformed. */
function changeTrackingOf(
  entry: FormatEntry,
  field: string,
): { modes?: Array<'git-diff' | 'json'>; tag?: string } {
  const { modes, tag } = entry;
  if (
    modes !== undefined &&
    !(Array.isArray(modes) && modes.every((m) => m === 'git-diff' || m === 'json'))
  )
    throw badRequest(`${field}.modes`, 'must be a list of git-diff and json');
  if (tag !== undefined && (typeof tag !== 'string' || tag.length === 0 || tag.length > 200))
    throw badRequest(`${field}.tag`, 'must be a string of 1 to 200 characters');
  return {
    ...(modes !== undefined ? { modes: modes as Array<'git-diff' | 'json'> } : {}),
    ...(tag !== undefined ? { tag } : {}),
  };
}

/** Firecrawl actions as native ones; `write` types into what the previous click focused. */
function actionsOf(options: ScrapeOptions, prefix: string): Action[] {
  const out: Action[] = [];
  if (options.waitFor) out.push({ type: 'wait', milliseconds: options.waitFor });
  let focused: string | undefined;
  for (const [i, raw] of (options.actions ?? []).entries()) {
    const a = raw as Record<string, unknown> & { type: string };
    const field = `${prefix}actions[${i}]`;
    const str = (k: string) => {
      if (typeof a[k] !== 'string' || !a[k]) throw badRequest(`${field}.${k}`, 'is required');
      return a[k] as string;
    };
    switch (a.type) {
      case 'wait':
        if (typeof a.selector === 'string')
          out.push({ type: 'waitForSelector', selector: a.selector });
        else if (
          typeof a.milliseconds === 'number' &&
          a.milliseconds >= 0 &&
          a.milliseconds <= 30_000
        )
          out.push({ type: 'wait', milliseconds: Math.round(a.milliseconds) });
        else
          throw badRequest(`${field}.milliseconds`, 'give milliseconds (0 to 30000) or a selector');
        break;
      case 'click':
        focused = str('selector');
        out.push({ type: 'click', selector: focused });
        break;
      case 'write':
        if (!focused) throw badRequest(field, 'write needs a click on the field before it');
        out.push({ type: 'type', selector: focused, text: str('text') });
        break;
      case 'press':
        out.push({ type: 'press', key: str('key') });
        break;
      case 'scroll':
        out.push({
          type: 'scroll',
          ...(a.direction === 'up' || a.direction === 'down' ? { direction: a.direction } : {}),
          ...(typeof a.selector === 'string' ? { selector: a.selector } : {}),
        });
        break;
      default:
        throw badRequest(
          `${field}.type`,
          `the ${a.type} action is not supported by this server (see docs/firecrawl.md)`,
        );
    }
  }
  return out;
}

/**
 * Firecrawl's proxy choice as the engines it allows. Its basic proxies are the plain rungs (HTTP,
 * then the headless browser); its stealth proxies (renamed enhanced) are browser-stealth alone;
 * auto, its default, is the whole ladder.
 */
const FIRECRAWL_PROXY_METHODS: Record<string, AcquireMethod[] | undefined> = {
  basic: ['http', 'browser'],
  stealth: ['browser-stealth'],
  enhanced: ['browser-stealth'],
  auto: undefined,
};

function methodsOf(options: ScrapeOptions, prefix: string): AcquireMethod[] | undefined {
  const { proxy } = options;
  if (proxy === undefined) return undefined;
  if (!Object.hasOwn(FIRECRAWL_PROXY_METHODS, proxy))
    throw badRequest(
      `${prefix}proxy`,
      `"${proxy}" is not a proxy type: use basic, stealth, enhanced or auto`,
    );
  return FIRECRAWL_PROXY_METHODS[proxy];
}

/**
 * A Firecrawl scrape request (or a batch's shared options) as the native scrape of `url`, its
 * schemas checked in `caller`'s turn (the key that sent it).
 */
export async function compatScrape(
  url: string,
  options: ScrapeOptions,
  config: Config,
  caller: string,
  prefix = '',
): Promise<CompatScrape> {
  const { formats, screenshot, extract, changeTracking } = await formatsOf(
    options,
    config,
    caller,
    prefix,
  );
  const pageFormats = [...formats].filter((f): f is PageFormat => PAGE_FORMAT_NAMES.has(f));
  const actions = actionsOf(options, prefix);
  const methods = methodsOf(options, prefix);
  const country = options.location?.country;
  const input = await scrapeInput(
    {
      url,
      // Links are the cheapest conversion when only a screenshot, a summary or json was asked for.
      formats: [
        ...(pageFormats.length ? pageFormats : (['links'] as const)),
        ...(changeTracking ? [changeTracking] : []),
      ],
      onlyMainContent: options.onlyMainContent ?? true,
      ...(options.includeComments !== undefined
        ? { includeComments: options.includeComments }
        : {}),
      ...(options.includeTags ? { includeTags: options.includeTags } : {}),
      ...(options.excludeTags ? { excludeTags: options.excludeTags } : {}),
      ...(actions.length ? { actions } : {}),
      ...(formats.has('summary') ? { summary: { query: SUMMARY_QUERY } } : {}),
      ...(country && country.toUpperCase() !== 'US' ? { proxy: { country } } : {}),
      // Firecrawl reads a PDF's text layer and falls back to OCR.
      pdfStrategy: 'auto',
      extractMetadata: true,
      ...(options.maxAge !== undefined ? { maxAge: options.maxAge } : {}),
      ...(options.storeInCache !== undefined ? { storeInCache: options.storeInCache } : {}),
    },
    config,
    caller,
    prefix,
    extract !== undefined,
  );
  return {
    input: { ...input, ...(extract ? { extract } : {}), ...(methods ? { methods } : {}) },
    formats,
    ...(screenshot ? { screenshot } : {}),
  };
}

/**
 * A Firecrawl crawl request as the native crawl body. Page options go through the same mapping as
 * a scrape, checked against a stand-in URL; what a crawl page cannot do natively (actions, and so
 * waitFor; a screenshot) is a 400 naming the field.
 */
export async function compatCrawl(
  body: V2CrawlBody,
  config: Config,
  caller: string,
): Promise<{ body: CrawlFields; methods?: AcquireMethod[] }> {
  const prefix = 'scrapeOptions.';
  const c = await compatScrape(
    'https://example.invalid/',
    body.scrapeOptions ?? {},
    config,
    caller,
    prefix,
  );
  if (c.screenshot) throw badRequest(`${prefix}formats`, 'screenshot is served by /v2/scrape only');
  if (c.input.extract)
    throw badRequest(
      `${prefix}formats`,
      'json is served by /v2/scrape, /v2/batch/scrape and /v2/search: crawl pages are not extracted',
    );
  if (body.scrapeOptions?.waitFor)
    throw badRequest(`${prefix}waitFor`, 'crawl pages take no browser actions, so no waitFor');
  if (body.scrapeOptions?.actions?.length)
    throw badRequest(`${prefix}actions`, 'crawl pages take no browser actions');
  const {
    formats,
    includeTags,
    excludeTags,
    includeComments,
    onlyMainContent,
    extractMetadata,
    pdfStrategy,
    summary,
    proxy,
    methods,
    maxAge,
    storeInCache,
    changeTracking,
  } = c.input;
  const crawl: CrawlFields = {
    url: body.url,
    ...(body.limit !== undefined ? { limit: body.limit } : {}),
    ...(body.maxDiscoveryDepth !== undefined ? { maxDepth: body.maxDiscoveryDepth } : {}),
    ...(body.includePaths ? { includePaths: body.includePaths } : {}),
    ...(body.excludePaths ? { excludePaths: body.excludePaths } : {}),
    // Firecrawl keeps a crawl under its start path unless told to take the whole domain.
    stayUnderStartPath: !body.crawlEntireDomain,
    ...(body.sitemap ? { sitemap: body.sitemap } : {}),
    ...(body.ignoreQueryParameters !== undefined
      ? { ignoreQueryParameters: body.ignoreQueryParameters }
      : {}),
    ...(body.allowSubdomains !== undefined ? { includeSubdomains: body.allowSubdomains } : {}),
    ...(body.delay !== undefined ? { delayMs: Math.round(body.delay * 1000) } : {}),
    ...(formats
      ? {
          formats: changeTracking
            ? [...formats, { type: 'changeTracking' as const, ...changeTracking }]
            : formats,
        }
      : {}),
    ...(includeTags ? { includeTags } : {}),
    ...(excludeTags ? { excludeTags } : {}),
    ...(includeComments !== undefined ? { includeComments } : {}),
    onlyMainContent,
    extractMetadata,
    pdfStrategy,
    ...(summary ? { summary } : {}),
    ...(proxy ? { proxy } : {}),
    ...(maxAge !== undefined ? { maxAge } : {}),
    ...(storeInCache !== undefined ? { storeInCache } : {}),
  };
  return { body: crawl, ...(methods ? { methods } : {}) };
}
