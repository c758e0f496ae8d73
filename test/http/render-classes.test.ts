import { describe, expect, it } from 'vitest';
import { articleOf } from '../fixtures/site/routes/render.ts';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { expectNoBrowsersLeft } from '../helpers/browsers.ts';
import { useFixture } from '../helpers/fixture.ts';
import { useServer } from '../helpers/server.ts';

/** Small enough that a page which never settles ends the test quickly, large enough for a stealth launch on a busy machine. */
const BUDGET_MS = 20_000;

expectNoBrowsersLeft();
const site = useFixture(() => startFixtureSite());
const t = useServer({
  settings: { WEBDATA_BROWSER_POOL_SIZE: '1', WEBDATA_PAGE_BUDGET_MS: String(BUDGET_MS) },
});

const scrape = (path: string) =>
  t.api('POST', '/api/v1/scrape/single', { url: `${site.origin}${path}` });

/** The real content is there, no placeholder or wall text is, and `method` answered, at the fetch price. */
async function expectPage(cls: string, n: number, method: string) {
  const { status, json } = await scrape(`/render/${cls}?n=${n}`);
  expect(status).toBe(200);
  expect(json.error).toBeUndefined();
  expect(json.success).toBe(true);
  for (const p of articleOf(cls, n).paragraphs) expect(json.markdown).toContain(p);
  expect(json.markdown).not.toMatch(/Loading…|Checking your browser|Access denied/i);
  expect(json.method).toBe(method);
  expect(json.cost).toBe(0.002);
}

describe('pages answered over plain HTTP', () => {
  it('serves a static article without a browser', () => expectPage('static', 1, 'http'));
  it('serves an article whose images, styles and scripts never load, without a browser', () =>
    expectPage('unreachable', 2, 'http'));
  it('serves streamed, progressive HTML whole, without a browser', () =>
    expectPage('stream', 3, 'http'));
});

describe('pages that are not there until a browser renders them', () => {
  it('renders a single-page app inside a server-rendered layout instead of returning its spinner', async () => {
    await expectPage('spa-shell', 1, 'browser');
    await expectPage('spa-shell', 2, 'browser');
  });

  it('waits for content fetched 1-3 s after load behind a skeleton', async () => {
    await expectPage('late', 1, 'browser');
    await expectPage('late', 3, 'browser');
  });

  it('scrolls lazy content below the fold into view', () => expectPage('lazy', 1, 'browser'));

  it('does not stall on a page that never goes network-idle (long poll, beacons, event stream)', async () => {
    const started = Date.now();
    await expectPage('never-idle', 1, 'browser');
    expect(Date.now() - started).toBeLessThan(BUDGET_MS);
  });

  it('passes a JavaScript cookie challenge answered with 503 and reports the real status', async () => {
    const { json } = await scrape('/render/cookie-challenge?n=2');
    expect(json.statusCode).toBe(200);
    await expectPage('cookie-challenge', 3, 'browser');
  });

  it('moves to browser-stealth when a client-side bot verdict turns the headless browser away', () =>
    expectPage('bot-verdict', 1, 'browser-stealth'));
});

describe('pages that never become the page', () => {
  it('fails every kind of wall at cost 0, naming the methods tried', async () => {
    for (const n of [1, 2, 3, 4]) {
      const { status, json } = await scrape(`/render/blocked?n=${n}`);
      expect(status).toBe(200);
      expect(json.success).toBe(false);
      expect(json.cost).toBe(0);
      expect(json.error).toMatch(/blocked|challenge/);
      expect(json.error).toContain('after trying http, browser, browser-stealth, browser-firefox');
      expect(json.markdown).toBeUndefined();
    }
  });

  it('ends a page stuck on its spinner within the budget with a clear error, at cost 0', async () => {
    const started = Date.now();
    const { status, json } = await scrape('/render/forever-loading');
    const took = Date.now() - started;
    expect(status).toBe(200);
    expect(json.success).toBe(false);
    expect(json.cost).toBe(0);
    expect(json.error).toMatch(/placeholder.*did not render its content in time/);
    expect(json.markdown).toBeUndefined();
    // The budget bounds the wait; a generous margin covers a loaded machine's slow replies.
    expect(took).toBeLessThan(BUDGET_MS + 10_000);
  });
});
