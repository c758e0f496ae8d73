import { expect } from 'vitest';
import { startBingSerpServer } from '../fixtures/bing-serp-server.ts';
import { BRAVE_TEST_KEY, startBraveSearchServer } from '../fixtures/brave-search-server.ts';
import { startGoogleSerpServer } from '../fixtures/google-serp-server.ts';
import {
  OPENAI_TEST_KEY,
  startOpenAiResponsesServer,
} from '../fixtures/openai-responses-server.ts';
import {
  PERPLEXITY_TEST_KEY,
  startPerplexitySearchServer,
} from '../fixtures/perplexity-search-server.ts';
import { startSearxngServer } from '../fixtures/searxng-server.ts';
import type { StandInServer } from '../fixtures/stand-in-server.ts';
import { useFixture } from './fixture.ts';
import { useServer } from './server.ts';

/**
 * Every search provider's stand-in on loopback and a server pointed at all of them, for the current
 * test file; with the ledger rows of searches and the checks the search tests share.
 */
export function useSearchProviders() {
  const google = useFixture(startGoogleSerpServer);
  const bing = useFixture(startBingSerpServer);
  const openai = useFixture(startOpenAiResponsesServer);
  const perplexity = useFixture(startPerplexitySearchServer);
  const searxng = useFixture(() => startSearxngServer());
  const brave = useFixture(startBraveSearchServer);
  const t = useServer({
    settings: () => ({
      WEBDATA_GOOGLE_URL: google.origin,
      WEBDATA_BING_URL: bing.origin,
      OPENAI_BASE_URL: `${openai.origin}/v1`,
      OPENAI_API_KEY: OPENAI_TEST_KEY,
      PERPLEXITY_BASE_URL: perplexity.origin,
      PERPLEXITY_API_KEY: PERPLEXITY_TEST_KEY,
      SEARXNG_URL: searxng.origin,
      BRAVE_BASE_URL: brave.origin,
      BRAVE_API_KEY: BRAVE_TEST_KEY,
      WEBDATA_SEARCH_TIMEOUT_MS: '3000',
    }),
  });

  const searchLedger = async () => (await t.ledger()).filter((r) => r.operation === 'search');

  /**
   * A first results page with nothing parsed on it is either the provider finding nothing (a success,
   * charged: the price is per query) or a page we could not read (a failure at no cost).
   */
  async function expectEmptyAndUnreadable(engine: 'google' | 'bing') {
    const before = (await searchLedger()).length;
    const res = await t.api('POST', '/api/v1/search', {
      engine,
      queries: ['zzqx noresults', 'react relayout'],
    });
    expect(res.status).toBe(200);
    const [empty, unreadable] = res.json.results;
    expect(empty).toMatchObject({
      query: 'zzqx noresults',
      success: true,
      results: [],
      cost: 0.008,
    });
    expect(unreadable).toMatchObject({
      query: 'react relayout',
      success: false,
      results: [],
      cost: 0,
      error: `${engine} returned a results page we could not read (its layout may have changed)`,
    });
    expect(res.json).toMatchObject({ successful: 1, failed: 1, cost: 0.008 });
    const rows = (await searchLedger()).slice(before);
    expect(rows.map((r) => r.costMicros)).toEqual([8000]);
  }

  /** A search request, with the requests `server` received while it ran. */
  const searchSeenBy = (server: StandInServer, body: unknown) =>
    seenBy(server, () => t.api('POST', '/api/v1/search', body));

  return {
    google,
    bing,
    openai,
    perplexity,
    searxng,
    brave,
    t,
    searchLedger,
    searchSeenBy,
    expectEmptyAndUnreadable,
  };
}

/** Requests a provider's stand-in received during `fn`. */
async function seenBy<T>(
  server: StandInServer,
  fn: () => Promise<T>,
): Promise<{ out: T; requests: StandInServer['requests'] }> {
  const before = server.requests.length;
  const out = await fn();
  return { out, requests: server.requests.slice(before) };
}
