import type { Static } from 'typebox';
import type { Config } from '../config.ts';
import { normaliseSearchInput, SearchInputError, type BatchInput, type ExtractInput, type ScrapeInput, type SearchInput, type SequenceInput } from '../ops/index.ts';
import { badRequest } from './errors.ts';
import { checkSteps } from './schemas/actions.ts';
import { checkSummary, requireHttpUrl, requireProxy } from './schemas/common.ts';
import { extractRequest, usableSchema, type ExtractBody } from './schemas/extract.ts';
import type { ScrapeBatchBody, ScrapeSingleBody } from './schemas/scrape.ts';
import type { SequenceBody } from './schemas/sequence.ts';

/**
 * Request bodies to operation inputs, with the checks a schema cannot express (absolute http(s)
 * URLs, step rules, a usable extraction, a configured proxy for the country). Shared
 * by each sync route and its async twin, so both accept exactly the same requests. `prefix`
 * names the field path inside a batch.
 */
export function scrapeInput(body: ScrapeSingleBody, config: Config, prefix = ''): ScrapeInput {
  checkSteps(body.actions, `${prefix}actions`);
  checkSummary(body.summary, `${prefix}summary`);
  return {
    url: requireHttpUrl(body.url, `${prefix}url`),
    type: body.type,
    onlyMainContent: body.onlyMainContent,
    extractMetadata: body.extractMetadata,
    pdfStrategy: body.pdfStrategy,
    actions: body.actions,
    summary: body.summary,
    extract: extractRequest(body.extract, config, `${prefix}extract`),
    proxy: requireProxy(config, body.proxy, prefix),
  };
}

export function batchInput(body: ScrapeBatchBody, config: Config, limit: { max: number; what: string }): BatchInput {
  if (body.urls.length > limit.max) throw badRequest('urls', `at most ${limit.max} URLs per ${limit.what} (got ${body.urls.length})`);
  checkSummary(body.summary, 'summary');
  const proxy = requireProxy(config, body.proxy);
  return {
    urls: body.urls.map((item, i) => (typeof item === 'string' ? { url: requireHttpUrl(item, `urls[${i}]`) } : scrapeInput(item, config, `urls[${i}].`))),
    type: body.type,
    onlyMainContent: body.onlyMainContent,
    extractMetadata: body.extractMetadata,
    pdfStrategy: body.pdfStrategy,
    summary: body.summary,
    extract: extractRequest(body.extract, config, 'extract'),
    proxy,
  };
}

export function sequenceInput(body: Static<typeof SequenceBody>, config: Config, prefix = ''): SequenceInput {
  checkSteps(body.steps, `${prefix}steps`);
  checkSummary(body.summary, `${prefix}summary`);
  return {
    startUrl: requireHttpUrl(body.startUrl, `${prefix}startUrl`),
    steps: body.steps,
    type: body.type,
    onlyMainContent: body.onlyMainContent,
    extractMetadata: body.extractMetadata,
    summary: body.summary,
    extract: extractRequest(body.extract, config, `${prefix}extract`),
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

/** A POST /v1/extract body: absolute URLs within the limit, a usable schema, a configured LLM. */
export function extractInput(body: ExtractBody, config: Config, maxUrls: number): ExtractInput {
  if (body.urls.length > maxUrls) throw badRequest('urls', `at most ${maxUrls} URLs per extraction (got ${body.urls.length})`);
  const urls = body.urls.map((u, i) => requireHttpUrl(u, `urls[${i}]`));
  const schema = usableSchema(body.schema, config, 'schema');
  return { urls, schema, ...(body.prompt !== undefined && body.prompt.trim() ? { prompt: body.prompt } : {}) };
}
