import { microsToUsd, PRICES_MICROS } from '../billing/index.ts';
import type { MapResult } from '../contract/index.ts';
import { DEFAULT_LIMITS, discover } from '../discover/index.ts';
import type { OpContext } from './context.ts';

export interface MapInput {
  url: string;
  limit?: number;
  search?: string;
  includeSubdomains?: boolean;
  ignoreQueryParameters?: boolean;
}

/**
 * Maps a site's URLs. One price per request whatever was found; a map that found nothing
 * (the site unreachable, no sitemap and no links) is a failure and costs nothing.
 */
export async function mapSite(input: MapInput, ctx: OpContext): Promise<MapResult> {
  const { config } = ctx.services;
  const result = await discover(
    ctx.services.httpEngine,
    {
      url: input.url,
      limit: input.limit ?? 100,
      search: input.search?.trim() || undefined,
      includeSubdomains: input.includeSubdomains ?? false,
      ignoreQueryParameters: input.ignoreQueryParameters ?? true,
    },
    ctx.signal,
    {
      ...DEFAULT_LIMITS,
      deadlineMs: config.mapTimeoutMs,
      maxRequests: config.mapMaxRequests,
      maxPageBytes: Math.min(DEFAULT_LIMITS.maxPageBytes, config.maxPageBytes),
    },
  );
  if (ctx.signal.aborted) throw ctx.signal.reason;
  ctx.log.debug(
    {
      url: input.url,
      found: result.found,
      requests: result.requests,
      bytes: result.bytes,
      failures: Object.fromEntries(result.failures),
    },
    'map finished',
  );
  const timestamp = new Date().toISOString();
  if (result.found === 0) {
    const error = result.startError
      ? `could not reach ${input.url}: ${result.startError}`
      : `no URLs found for ${input.url}: no sitemap, feed or same-site link`;
    return { success: false, links: [], total: 0, cost: 0, error, timestamp };
  }
  const cost = ctx.meter.charge('map', 1, PRICES_MICROS.map);
  return {
    success: true,
    links: result.links,
    total: result.links.length,
    cost: microsToUsd(cost),
    timestamp,
  };
}
