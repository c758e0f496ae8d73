import { FetchFailure } from '../acquire/index.ts';
import { microsToUsd, searchQueryCost } from '../billing/index.ts';
import { callerText } from '../browser/index.ts';
import type { SearchQueryResult, SearchResult } from '../contract/index.ts';
import { collect, normaliseDomain, SearchProviderError } from '../search/index.ts';
import { isoCountry, type SearchProviderName } from '../settings/index.ts';
import { UpstreamError } from '../upstream/index.ts';
import type { OpContext } from './context.ts';
import { InputError } from './input-error.ts';
import { tally } from './tally.ts';

export interface SearchOptions {
  limit?: number;
  /** ISO 3166-1 alpha-2, already validated. */
  location?: string;
  /** Bare host names, already normalised. */
  includeDomains?: string[];
  excludeDomains?: string[];
  engine?: SearchProviderName;
}

export interface SearchInput extends SearchOptions {
  queries: string[];
}

/** One query of a search: the unit a sync request runs up to three of and an async batch item runs one of. */
export interface SearchQueryInput extends SearchOptions {
  query: string;
}

export const DEFAULT_SEARCH_LIMIT = 10;

/**
 * Checks what a schema cannot (a real country, host-like domains, non-blank queries) and puts the
 * request in the form providers expect, or throws InputError naming the field. Shared by the sync
 * route, the async batch route and /v2/search.
 */
export function normaliseSearchInput(body: SearchInput): SearchInput {
  body.queries.forEach((q, i) => {
    if (!q.trim()) throw new InputError(`queries[${i}]`, 'must not be blank');
  });
  let location: string | undefined;
  if (body.location !== undefined) {
    location = isoCountry(body.location);
    if (!location)
      throw new InputError(
        'location',
        `"${body.location}" is not an ISO 3166-1 alpha-2 country code`,
      );
  }
  const domains = (field: 'includeDomains' | 'excludeDomains') => [
    ...new Set(
      (body[field] ?? []).map((raw, i) => {
        const domain = normaliseDomain(raw);
        if (!domain) throw new InputError(`${field}[${i}]`, `"${raw}" is not a domain name`);
        return domain;
      }),
    ),
  ];
  return {
    queries: body.queries.map((q) => q.trim()),
    limit: body.limit ?? DEFAULT_SEARCH_LIMIT,
    location,
    includeDomains: domains('includeDomains'),
    excludeDomains: domains('excludeDomains'),
    engine: body.engine ?? 'google',
  };
}

/** Splits a search request into its queries, each carrying the shared options. */
export function searchItems(input: SearchInput): SearchQueryInput[] {
  const { queries, ...options } = input;
  return queries.map((query) => ({ ...options, query }));
}

function failureMessage(
  provider: SearchProviderName,
  err: unknown,
  deadline: AbortSignal,
  timeoutMs: number,
): string {
  if (deadline.aborted) return `${provider} did not answer within ${timeoutMs} ms`;
  if (err instanceof SearchProviderError) return err.message;
  if (err instanceof UpstreamError)
    return err.kind === 'refused'
      ? `${provider} refused the query: ${err.reason}`
      : `${provider} failed: ${err.reason}`;
  if (err instanceof FetchFailure) return `${provider}: ${err.message}`;
  return `${provider} failed: ${callerText(err)}`;
}

/**
 * Runs one query on its provider within the search deadline. Never throws for the provider's fault:
 * a refusal, an error or a time-out is a failed result that costs nothing.
 */
export async function searchQuery(
  input: SearchQueryInput,
  ctx: OpContext,
): Promise<SearchQueryResult> {
  const started = performance.now();
  const providerName = input.engine ?? 'google';
  const limit = input.limit ?? DEFAULT_SEARCH_LIMIT;
  const { timeoutMs } = ctx.services.config.search;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([ctx.signal, deadline]);
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const results = await collect(
      ctx.services.search[providerName],
      {
        query: input.query,
        limit,
        location: input.location,
        includeDomains: input.includeDomains ?? [],
        excludeDomains: input.excludeDomains ?? [],
      },
      signal,
    );
    const cost = ctx.meter.charge('search', 1, searchQueryCost(limit));
    return {
      query: input.query,
      success: true,
      results,
      loadTimeMs: elapsed(),
      cost: microsToUsd(cost),
    };
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    const error = failureMessage(providerName, err, deadline, timeoutMs);
    ctx.log.info({ engine: providerName, error }, 'search query failed');
    return {
      query: input.query,
      success: false,
      results: [],
      loadTimeMs: elapsed(),
      cost: 0,
      error,
    };
  }
}

export function totalSearch(results: SearchQueryResult[], totalTimeMs: number): SearchResult {
  const { cost, ...counts } = tally(results);
  return { results, ...counts, totalTimeMs, timestamp: new Date().toISOString(), cost };
}

/** Runs every query at once (a sync search has at most three); results keep the request order. */
export async function search(input: SearchInput, ctx: OpContext): Promise<SearchResult> {
  const started = performance.now();
  const results = await Promise.all(searchItems(input).map((item) => searchQuery(item, ctx)));
  return totalSearch(results, Math.round(performance.now() - started));
}
