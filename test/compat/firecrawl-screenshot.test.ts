import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { expectNoBrowsersLeft } from '../helpers/browsers.ts';
import { useFixture } from '../helpers/fixture.ts';
import { useServer } from '../helpers/server.ts';

expectNoBrowsersLeft();
const site = useFixture(() => startFixtureSite());
const t = useServer({ settings: { WEBDATA_BROWSER_POOL_SIZE: '1' } });
const hits = (path: string) => site.hits.filter((h) => h === path).length;

describe('/v2/scrape with a screenshot', () => {
  it('loads the page once for both the content and the picture', async () => {
    const before = hits('/article.html');
    const res = await t.api('POST', '/v2/scrape', {
      url: `${site.origin}/article.html`,
      formats: ['markdown', { type: 'screenshot', viewport: { width: 800, height: 600 } }],
    });
    expect(res.status).toBe(200);
    const doc = res.json.data;
    expect(doc.markdown).toContain('Twice a day the ocean pulls back');
    expect(doc.screenshot).toMatch(/\/files\/.+\.png$/);
    expect(doc.metadata).toMatchObject({ method: 'browser', cost: 0.005 });
    expect(hits('/article.html') - before).toBe(1);
    const png = await fetch(`${t.base}${new URL(doc.screenshot).pathname}`);
    expect(png.headers.get('content-type')).toBe('image/png');
  }, 120_000);

  it('pictures the top of the page in the viewport, as a screenshot of its own would', async () => {
    const res = await t.api('POST', '/v2/scrape', {
      url: `${site.origin}/browser/tall`,
      formats: ['markdown', { type: 'screenshot', viewport: { width: 800, height: 600 } }],
    });
    expect(res.json.data.markdown).toContain('A tall page');
    const file = await fetch(`${t.base}${new URL(res.json.data.screenshot).pathname}`);
    const png = PNG.sync.read(Buffer.from(await file.arrayBuffer()));
    expect([png.width, png.height]).toEqual([800, 600]);
    // The box (#00aa77) is 40 px from the top left: the centre of it, not the page's bottom.
    const i = (115 * png.width + 190) * 4;
    expect([png.data[i], png.data[i + 1], png.data[i + 2]]).toEqual([0x00, 0xaa, 0x77]);
  }, 120_000);

  it('pictures a scrape served from the cache with a load of its own', async () => {
    const url = `${site.origin}/long-article`;
    const first = await t.api('POST', '/v2/scrape', { url, formats: ['markdown'] });
    expect(first.status).toBe(200);
    const before = hits('/long-article');
    const res = await t.api('POST', '/v2/scrape', {
      url,
      formats: ['markdown', 'screenshot'],
      maxAge: 600_000,
    });
    expect(res.json.data.metadata.cacheState).toBe('hit');
    expect(res.json.data.screenshot).toMatch(/\/files\/.+\.png$/);
    expect(hits('/long-article') - before).toBe(1);
  }, 120_000);

  it('reports a page that failed without a second load for the picture', async () => {
    const before = hits('/status/404');
    const res = await t.api('POST', '/v2/scrape', {
      url: `${site.origin}/status/404`,
      formats: ['markdown', 'screenshot'],
    });
    expect(res.json.success).toBe(false);
    expect(res.json.data.screenshot).toBeUndefined();
    expect(res.json.data.warning).toMatch(/^screenshot failed: /);
    expect(hits('/status/404') - before).toBe(1);
  }, 120_000);
});
