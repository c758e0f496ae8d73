import { describe, expect, it } from 'vitest';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { TEST_KEY, useServer } from '../helpers/server.ts';

const site = useFixture(() => startFixtureSite());
const t = useServer({
  settings: { WEBDATA_MAX_REQUEST_BYTES: '4096', WEBDATA_MAX_INFLIGHT_PER_USER: '2' },
});

describe('authentication', () => {
  it('answers 401 without a key and with a wrong one', async () => {
    const none = await t.api(
      'POST',
      '/api/v1/scrape/single',
      { url: `${site.origin}/article.html` },
      null,
    );
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect(none.json.success).toBe(false);
    const wrong = await t.api(
      'POST',
      '/api/v1/scrape/single',
      { url: `${site.origin}/article.html` },
      'wd_not_a_real_key_at_all_000',
    );
    expect(wrong.status).toBe(401);
    expect(site.hits).not.toContain('/article.html');
  });

  it('stores keys hashed, never in clear', async () => {
    const rows = await t.server.database.db.selectFrom('api_keys').selectAll().execute();
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (const row of rows) {
      expect(JSON.stringify(row)).not.toContain(TEST_KEY);
      expect(row.hash).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('rejects a revoked key', async () => {
    const { key, info } = await t.server.keys.create('short-lived');
    expect(
      (await t.api('POST', '/api/v1/scrape/single', { url: `${site.origin}/notes.txt` }, key))
        .status,
    ).toBe(200);
    await t.server.keys.revoke(info.id);
    expect(
      (await t.api('POST', '/api/v1/scrape/single', { url: `${site.origin}/notes.txt` }, key))
        .status,
    ).toBe(401);
  });

  it('leaves health, the OpenAPI document and the docs page open', async () => {
    expect((await t.api('GET', '/health', undefined, null)).json.status).toBe('ok');
    const doc = await t.api('GET', '/openapi.json', undefined, null);
    expect(doc.status).toBe(200);
    expect(doc.json.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.json.paths)).toEqual(
      expect.arrayContaining(['/api/v1/scrape/single', '/api/v1/scrape/batch']),
    );
    expect(doc.json.paths['/api/v1/scrape/single'].post.requestBody).toBeDefined();
    const page = await fetch(`${t.base}/docs/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<html');
  });
});

describe('bad input', () => {
  const cases: Array<[string, unknown, string]> = [
    ['missing url', {}, 'url'],
    ['bad type', { url: 'http://x.example/', type: 'pdf' }, 'type'],
    ['non-http scheme', { url: 'file:///etc/passwd' }, 'url'],
    ['relative url', { url: '/just/a/path' }, 'url'],
    ['wrong field type', { url: 'http://x.example/', onlyMainContent: 'yes' }, 'onlyMainContent'],
    ['unknown field', { url: 'http://x.example/', onlyMainContnet: false }, 'onlyMainContnet'],
  ];
  it.each(cases)('answers 400 naming the field: %s', async (_name, body, field) => {
    const { status, json } = await t.api('POST', '/api/v1/scrape/single', body);
    expect(status).toBe(400);
    expect(json.success).toBe(false);
    expect(json.details[0].field).toBe(field);
    expect(json.error.startsWith(`${field}: `)).toBe(true);
  });

  it('answers 400 for malformed JSON and 413 for a body over the limit', async () => {
    const bad = await t.api('POST', '/api/v1/scrape/single', '{"url": ');
    expect(bad.status).toBe(400);
    expect(bad.json.success).toBe(false);
    const big = await t.api('POST', '/api/v1/scrape/single', {
      url: `http://x.example/${'a'.repeat(5000)}`,
    });
    expect(big.status).toBe(413);
    expect(big.json.error).toMatch(/larger than the limit/);
  });

  it('answers 404 as JSON for an unknown route', async () => {
    const { status, json } = await t.api('GET', '/api/v1/nothing-here');
    expect(status).toBe(404);
    expect(json.success).toBe(false);
  });

  it('answers a malformed path in the API error shape', async () => {
    const badEscape = await t.api('GET', '/api/v1/scrape/async/job/%E0%A4%A');
    expect(badEscape.status).toBe(400);
    expect(badEscape.json).toEqual({
      success: false,
      error: expect.stringMatching(/percent-encoding/),
    });
    const longId = await t.api('GET', `/api/v1/browser-sandbox/session/${'a'.repeat(120)}`);
    expect(longId.status).toBe(414);
    expect(longId.json).toEqual({ success: false, error: expect.stringMatching(/maximum length/) });
  });

  it('answers 429 with Retry-After beyond the in-flight limit', async () => {
    const slow = () =>
      t.api('POST', '/api/v1/scrape/single', { url: `${site.origin}/slow?ms=1500` });
    const results = await Promise.all([slow(), slow(), slow()]);
    const limited = results.filter((r) => r.status === 429);
    expect(limited).toHaveLength(1);
    expect(limited[0]!.headers.get('retry-after')).toBe('1');
    expect(results.filter((r) => r.status === 200)).toHaveLength(2);
  });

  it('frees the in-flight places of requests whose clients went away', async () => {
    const abandon = async () => {
      const gone = new AbortController();
      const sent = fetch(`${t.base}/api/v1/scrape/single`, {
        method: 'POST',
        signal: gone.signal,
        headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${site.origin}/slow?ms=1500` }),
      }).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 200));
      gone.abort();
      await sent;
    };
    // More abandoned requests than the limit of 2: each must hand its place back.
    await Promise.all([abandon(), abandon()]);
    await abandon();
    await new Promise((r) => setTimeout(r, 300));
    expect(
      (await t.api('POST', '/api/v1/scrape/single', { url: `${site.origin}/notes.txt` })).status,
    ).toBe(200);
  });
});
