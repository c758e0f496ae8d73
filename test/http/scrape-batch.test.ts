import { describe, expect, it } from 'vitest';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { TEST_KEY_2, useServer } from '../helpers/server.ts';

const site = useFixture(() => startFixtureSite());
const t = useServer({ settings: { WEBDATA_BATCH_MAX_URLS: '5' } });

describe('POST /v1/scrape/batch', () => {
  it('keeps input order, isolates failures, and charges only successes', async () => {
    const { status, json } = await t.api('POST', '/api/v1/scrape/batch', {
      urls: [
        `${site.origin}/article.html`,
        `${site.origin}/status/404`,
        { url: `${site.origin}/notes.txt`, type: 'html' },
        `http://169.254.169.254/latest/meta-data/`,
        { url: `${site.origin}/article.html`, onlyMainContent: false, extractMetadata: true },
      ],
    });
    expect(status).toBe(200);
    expect(json.total).toBe(5);
    expect(json.successful).toBe(3);
    expect(json.failed).toBe(2);
    expect(json.cost).toBe(0.006);
    const [a, b, c, d, e] = json.results;
    expect(a).toMatchObject({ url: `${site.origin}/article.html`, success: true, cost: 0.002 });
    expect(a.markdown).not.toContain('Subscribe now');
    expect(b).toMatchObject({
      url: `${site.origin}/status/404`,
      success: false,
      statusCode: 404,
      cost: 0,
    });
    expect(c).toMatchObject({ success: true, html: 'Plain text notes.\nSecond line.' });
    expect(c.markdown).toBeUndefined();
    expect(d).toMatchObject({ success: false, cost: 0 });
    expect(d.error).toMatch(/169\.254\.169\.254/);
    expect(e.markdown).toContain('Subscribe now');
    expect(e.metadata.finalUrl).toBe(`${site.origin}/article.html`);
  });

  it('applies batch-level options to string URLs', async () => {
    const { json } = await t.api('POST', '/api/v1/scrape/batch', {
      urls: [`${site.origin}/article.html`],
      type: 'html',
      extractMetadata: true,
    });
    expect(json.results[0].html).toContain('<table');
    expect(json.results[0].metadata.title).toContain('Tide Pools');
  });

  it('refuses more URLs than the documented maximum', async () => {
    const urls = Array.from({ length: 6 }, () => `${site.origin}/article.html`);
    const { status, json } = await t.api('POST', '/api/v1/scrape/batch', { urls });
    expect(status).toBe(400);
    expect(json.error).toMatch(/^urls: at most 5 URLs/);
  });

  it('names the bad item of a batch', async () => {
    const { status, json } = await t.api('POST', '/api/v1/scrape/batch', {
      urls: [`${site.origin}/a`, 'ftp://x.example/file'],
    });
    expect(status).toBe(400);
    expect(json.details[0].field).toBe('urls[1]');
  });

  it('writes one ledger row per charged URL, matching the costs returned', async () => {
    const before = (
      await t.server.ledger.forUser((await t.server.keys.authenticate(TEST_KEY_2))!.userId)
    ).length;
    const { json } = await t.api(
      'POST',
      '/api/v1/scrape/batch',
      {
        urls: [
          `${site.origin}/article.html`,
          `${site.origin}/status/500`,
          `${site.origin}/notes.txt`,
        ],
      },
      TEST_KEY_2,
    );
    const rows = (
      await t.server.ledger.forUser((await t.server.keys.authenticate(TEST_KEY_2))!.userId)
    ).slice(before);
    expect(rows).toHaveLength(2);
    expect(
      rows.every((r) => r.operation === 'scrape' && r.units === 1 && r.costMicros === 2000),
    ).toBe(true);
    expect(rows.reduce((s, r) => s + r.costMicros, 0) / 1e6).toBe(json.cost);
  });
});
