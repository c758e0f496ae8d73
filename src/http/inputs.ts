import type { Static } from 'typebox';
import type { Config } from '../config.ts';
import { selectTags, SelectorError } from '../content/index.ts';
import { normaliseSearchInput, SearchInputError, type BatchInput, type ScrapeInput, type ScrapeOptions, type SearchInput, type SequenceInput } from '../ops/index.ts';
import { badRequest } from './errors.ts';
import { checkSteps } from './schemas/actions.ts';
import { checkSummary, requireHttpUrl, requireProxy } from './schemas/common.ts';
import type { PageScrapeOptions, ScrapeBatchBody, ScrapeSingleBody } from './schemas/scrape.ts';
import type { SequenceBody } from './schemas/sequence.ts';

/**
 * Request bodies to operation inputs, with the checks a schema cannot express (absolute http(s)
 * URLs, step rules, a configured LLM for summaries, a configured proxy for the country). Shared
 * by each sync route and its async twin, so both accept exactly the same requests. `prefix`
 * names the field path inside a batch.
 */
export function scrapeInput(body: ScrapeSingleBody, config: Config, prefix = ''): ScrapeInput {
  checkSteps(body.actions, `${prefix}actions`);
  checkSummary(body.summary, config, `${prefix}summary`);
  checkPageFields(body, prefix);
  return {
    ...pageFields(body),
    url: requireHttpUrl(body.url, `${prefix}url`),
    type: body.type,
    onlyMainContent: body.onlyMainContent,
    extractMetadata: body.extractMetadata,
    pdfStrategy: body.pdfStrategy,
    actions: body.actions,
    summary: body.summary,
    proxy: requireProxy(config, body.proxy, prefix),
  };
}

type PageFieldsBody = Pick<ScrapeSingleBody, 'type' | 'formats' | 'includeTags' | 'excludeTags'>;

/** `type` and `formats` say the same thing two ways; both at once would leave one ignored. */
function checkPageFields(body: PageFieldsBody, prefix: string): void {
  if (body.type !== undefined && body.formats !== undefined) throw badRequest(`${prefix}formats`, 'give either type or formats, not both');
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

function pageFields(body: PageFieldsBody): Pick<ScrapeInput, 'formats' | 'includeTags' | 'excludeTags'> {
  return { formats: body.formats, includeTags: body.includeTags, excludeTags: body.excludeTags };
}

/** Scrape options given for pages another operation fetches (a search's hits). */
export function pageScrapeOptions(body: PageScrapeOptions, prefix: string): ScrapeOptions {
  checkPageFields(body, prefix);
  return { type: body.type, onlyMainContent: body.onlyMainContent, extractMetadata: body.extractMetadata, pdfStrategy: body.pdfStrategy, ...pageFields(body) };
}

export function batchInput(body: ScrapeBatchBody, config: Config, limit: { max: number; what: string }): BatchInput {
  if (body.urls.length > limit.max) throw badRequest('urls', `at most ${limit.max} URLs per ${limit.what} (got ${body.urls.length})`);
  checkSummary(body.summary, config, 'summary');
  checkPageFields(body, '');
  const proxy = requireProxy(config, body.proxy);
  return {
    ...pageFields(body),
    urls: body.urls.map((item, i) => (typeof item === 'string' ? { url: requireHttpUrl(item, `urls[${i}]`) } : scrapeInput(item, config, `urls[${i}].`))),
    type: body.type,
    onlyMainContent: body.onlyMainContent,
    extractMetadata: body.extractMetadata,
    pdfStrategy: body.pdfStrategy,
    summary: body.summary,
    proxy,
  };
}

export function sequenceInput(body: Static<typeof SequenceBody>, config: Config, prefix = ''): SequenceInput {
  checkSteps(body.steps, `${prefix}steps`);
  checkSummary(body.summary, config, `${prefix}summary`);
  return {
    startUrl: requireHttpUrl(body.startUrl, `${prefix}startUrl`),
    steps: body.steps,
    type: body.type,
    onlyMainContent: body.onlyMainContent,
    extractMetadata: body.extractMetadata,
    summary: body.summary,
    proxy: requireProxy(config, body.proxy, prefix),
  };
}

/** A search body, normalised (domains, location, limit) with each problem named by its field. */
export function searchInput(body: SearchInput): SearchInput {
  try {
    return normaliseSearchInput(body);
  } catch (err) {
    if (err instanceof SearchInputError) throw badRequest(err.field, err.message);
    throw err;
  }
}
