import { describe, expect, it } from 'vitest';
import { startGoogleSerpServer } from '../fixtures/google-serp-server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { TEST_KEY_2, useServer } from '../helpers/server.ts';

const google = useFixture(startGoogleSerpServer);
// The first stealth navigation launches full Chromium under Xvfb, which a busy machine stretches
// past the test servers' usual 5 s fetch deadline.
const t = useServer({
  settings: () => ({
    WEBDATA_GOOGLE_URL: google.origin,
    WEBDATA_SEARCH_TIMEOUT_MS: '25000',
    WEBDATA_FETCH_TIMEOUT_MS: '15000',
  }),
});

const searchLedger = async (key: string) =>
  (await t.ledger(key)).filter((r) => r.operation === 'search');

describe('Google results pages that turn plain HTTP away', () => {
  it('passes a JavaScript gate in browser-stealth and returns the real results', async () => {
    const before = google.requests.length;
    const res = await t.api('POST', '/api/v1/search', { queries: ['react jsgate'] });
    const [q] = res.json.results;
    expect(q.error).toBeUndefined();
    expect(q).toMatchObject({ query: 'react jsgate', success: true, cost: 0.008 });
    expect(q.results.length).toBeGreaterThanOrEqual(8);
    expect(q.results[0].url).toMatch(/^https:\/\//);
    // Plain HTTP first (turned away), then the browser: the gate served twice, the results once it ran.
    const seen = google.requests.slice(before).filter((r) => r.path === '/search');
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(seen[0]!.headers.cookie).toBeUndefined();
    expect(seen.at(-1)!.headers.cookie).toMatch(/gate_passed=1/);
  });

  it('fails queries still refused in browser-stealth, saying so, and charges only the answered one', async () => {
    const before = (await searchLedger(TEST_KEY_2)).length;
    const res = await t.api(
      'POST',
      '/api/v1/search',
      { queries: ['react github', 'captcha please', 'enablejs test'] },
      TEST_KEY_2,
    );
    expect(res.status).toBe(200);
    const [ok, captcha, shell] = res.json.results;
    expect(ok).toMatchObject({ query: 'react github', success: true, cost: 0.008 });
    expect(captcha).toMatchObject({
      query: 'captcha please',
      success: false,
      cost: 0,
      results: [],
    });
    expect(captcha.error).toMatch(
      /google refused the query: an "unusual traffic" captcha \(\/sorry\/\), also to browser-stealth/,
    );
    expect(shell).toMatchObject({ query: 'enablejs test', success: false, cost: 0 });
    expect(shell.error).toMatch(/requires JavaScript, also to browser-stealth/);
    expect(res.json).toMatchObject({ total: 3, successful: 1, failed: 2, cost: 0.008 });
    const rows = (await searchLedger(TEST_KEY_2)).slice(before);
    expect(rows.map((r) => [r.operation, r.units, r.costMicros])).toEqual([['search', 1, 8000]]);
  });
});
