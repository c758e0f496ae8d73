import { describe, expect, it } from 'vitest';
import { THREAD } from '../fixtures/site/routes/browser.ts';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { expectNoBrowsersLeft } from '../helpers/browsers.ts';
import { useFixture } from '../helpers/fixture.ts';
import { useServer } from '../helpers/server.ts';

expectNoBrowsersLeft();
const site = useFixture(() => startFixtureSite());
const t = useServer({ settings: { WEBDATA_BROWSER_POOL_SIZE: '1' } });

const scrape = (body: Record<string, unknown>) => t.api('POST', '/api/v1/scrape/single', body);
const stats = () => t.server.services.browser.stats();

describe('scrape escalation to the browser', () => {
  it('renders a page whose text exists only after JavaScript runs', async () => {
    const { status, json } = await scrape({
      url: `${site.origin}/browser/js-only`,
      extractMetadata: true,
    });
    expect(status).toBe(200);
    expect(json.success).toBe(true);
    expect(json.markdown).toContain('Only a browser sees this sentence about kelp forests.');
    expect(json.cost).toBe(0.002);
    expect(json.metadata.title).toBe('Rendered by script');
    expect(stats().browser.launches).toBeGreaterThan(0);
  });

  it('waits for a single-page app that loads its content after a delay', async () => {
    const { json } = await scrape({ url: `${site.origin}/browser/spa?delay=800` });
    expect(json.success).toBe(true);
    expect(json.markdown).toContain('The harbour seals haul out on the sandbar');
  });

  it('returns a script-rendered thread once, not again from its <noscript> copy', async () => {
    for (const onlyMainContent of [true, false]) {
      const { json } = await scrape({
        url: `${site.origin}/browser/app-with-noscript-copy`,
        onlyMainContent,
        // An action takes the page to the browser, whose app shows the thread the copy repeats.
        actions: [{ type: 'wait', milliseconds: 10 }],
      });
      expect(json.success).toBe(true);
      expect(json.method).toBe('browser');
      for (const post of THREAD)
        expect(
          json.markdown.split(post),
          `${post}, onlyMainContent ${onlyMainContent}`,
        ).toHaveLength(2);
    }
  });

  it('passes a JavaScript cookie challenge (sets a cookie and reloads) and reports the real status', async () => {
    const { json } = await scrape({ url: `${site.origin}/browser/cookie-challenge` });
    expect(json.success).toBe(true);
    expect(json.statusCode).toBe(200);
    expect(json.markdown).toContain('The harbour seals haul out');
    expect(json.markdown).not.toContain('Checking your browser');
  });

  it('moves to browser-stealth when the headless browser is turned away', async () => {
    const before = stats()['browser-stealth'].launches;
    const { json } = await scrape({ url: `${site.origin}/browser/bot-check` });
    expect(json.success).toBe(true);
    expect(json.markdown).toContain('Welcome, human visitor');
    expect(json.markdown).not.toContain('Access Denied');
    expect(stats()['browser-stealth'].launches).toBe(before + 1);
  });

  it('moves to Firefox when every Chromium is turned away, and says so', async () => {
    const before = stats()['browser-firefox'].launches;
    const { json } = await scrape({ url: `${site.origin}/browser/chromium-wall` });
    expect(json.success).toBe(true);
    expect(json.method).toBe('browser-firefox');
    expect(json.markdown).toContain('forty minutes after the outer buoy');
    expect(json.markdown).not.toContain('verify you are a human');
    expect(stats()['browser-firefox'].launches).toBe(before + 1);
  });

  it('fails a page that stays blocked after every method, at no cost', async () => {
    const { status, json } = await scrape({ url: `${site.origin}/browser/always-blocked` });
    expect(status).toBe(200);
    expect(json.success).toBe(false);
    expect(json.cost).toBe(0);
    expect(json.markdown).toBeUndefined();
    expect(json.error).toMatch(
      /captcha wall.*still blocked after trying http, browser, browser-stealth, browser-firefox/,
    );
  });

  it('treats an almost empty 403 as a wall: escalates, then fails with the status, at no cost', async () => {
    const hits = () => site.hits.filter((h) => h === '/browser/rejected').length;
    const before = hits();
    const { json } = await scrape({ url: `${site.origin}/browser/rejected` });
    expect(json.success).toBe(false);
    expect(json.statusCode).toBe(403);
    expect(json.cost).toBe(0);
    expect(json.error).toMatch(
      /HTTP 403 with almost no content.*still blocked after trying http, browser, browser-stealth, browser-firefox/,
    );
    // HTTP, then the headless browser, then the stealth browser, then Firefox.
    expect(hits() - before).toBe(4);
  });

  it.each(['browser', 'browser-firefox'])(
    'refuses subresources and fetches to a forbidden address through the egress proxy (%s)',
    async (method) => {
      const refused = () =>
        t.server.services.browser.proxy.refusals().filter((m) => m.includes('169.254.169.254'))
          .length;
      const before = refused();
      const { json } = await scrape({
        url: `${site.origin}/browser/leaky`,
        method,
        actions: [
          {
            type: 'waitForSelector',
            selector: '#status:not(:empty):not(:has-text("pending"))',
            timeout: 5000,
          },
        ],
      });
      expect(json.success).toBe(true);
      expect(json.method).toBe(method);
      expect(json.markdown).toContain('metadata fetch refused');
      expect(refused()).toBeGreaterThan(before);
    },
  );
});

describe('scrape actions', () => {
  it('scrolls an infinite list to load more items', async () => {
    // A plain scrape scrolls through the page once (at most 12 screens, one batch of three items each at most), which loads part of the list.
    const plain = await scrape({ url: `${site.origin}/browser/infinite` });
    expect(plain.json.markdown).toContain('List item number 3 ');
    expect(plain.json.markdown).not.toContain('List item number 45 ');
    // Scroll actions go on from where that reveal stopped, one more batch of items per screen.
    const scrolls = Array.from({ length: 30 }, () => ({ type: 'scroll' as const }));
    const { json } = await scrape({
      url: `${site.origin}/browser/infinite`,
      actions: [
        ...scrolls,
        {
          type: 'waitForSelector',
          selector: '.item:has-text("List item number 45 ")',
          timeout: 10_000,
        },
      ],
    });
    expect(json.success, json.error).toBe(true);
    expect(json.markdown).toContain('List item number 45 ');
  });

  it('fills a form, submits it with Enter and navigates to another page', async () => {
    const form = await scrape({
      url: `${site.origin}/browser/form`,
      actions: [
        { type: 'type', selector: '#q', text: 'rock pools' },
        { type: 'press', key: 'Enter' },
      ],
    });
    expect(form.json.success).toBe(true);
    expect(form.json.markdown).toContain('Results for rock pools');
    const nav = await scrape({
      url: `${site.origin}/browser/form`,
      extractMetadata: true,
      actions: [{ type: 'navigate', url: `${site.origin}/browser/second` }],
    });
    expect(nav.json.markdown).toContain('Reached by a navigate step.');
    expect(nav.json.metadata.finalUrl).toBe(`${site.origin}/browser/second`);
  });

  it('names the index of a failed action and charges nothing', async () => {
    const { json } = await scrape({
      url: `${site.origin}/browser/form`,
      actions: [
        { type: 'wait', milliseconds: 10 },
        { type: 'waitForSelector', selector: '#never', timeout: 300 },
      ],
    });
    expect(json.success).toBe(false);
    expect(json.cost).toBe(0);
    expect(json.error).toMatch(
      /^actions\[1\] \(waitForSelector\) failed: no element matched "#never" within 300 ms/,
    );
  });

  it('refuses a navigate step to a forbidden address', async () => {
    const { json } = await scrape({
      url: `${site.origin}/browser/form`,
      actions: [{ type: 'navigate', url: 'http://169.254.169.254/latest/' }],
    });
    expect(json.success).toBe(false);
    expect(json.error).toMatch(
      /actions\[0\] \(navigate\) failed: .*169\.254\.169\.254.*link-local/,
    );
  });

  it('names the refusal when the browser is redirected to a forbidden address', async () => {
    const { json } = await scrape({
      url: `${site.origin}/redirect-to?url=http://169.254.169.254/latest/`,
      actions: [{ type: 'wait', milliseconds: 1 }],
    });
    expect(json.success).toBe(false);
    expect(json.cost).toBe(0);
    expect(json.error).toMatch(
      /refused to fetch 169\.254\.169\.254: 169\.254\.169\.254 is a link-local address/,
    );
  });

  it("names the refusal when the page's own script navigates to a forbidden address", async () => {
    const { json } = await scrape({
      url: `${site.origin}/browser/wanders-off`,
      actions: [{ type: 'wait', milliseconds: 600 }],
    });
    expect(json.success).toBe(false);
    expect(json.cost).toBe(0);
    expect(json.error).toMatch(/^refused to fetch 169\.254\.169\.254: .*link-local/);
  });

  it('rejects malformed actions with 400 naming the field', async () => {
    const missing = await scrape({
      url: `${site.origin}/browser/form`,
      actions: [{ type: 'click' }],
    });
    expect(missing.status).toBe(400);
    expect(missing.json.error).toMatch(/^actions\[0\]/);
    const scheme = await scrape({
      url: `${site.origin}/browser/form`,
      actions: [{ type: 'navigate', url: 'file:///etc/passwd' }],
    });
    expect(scheme.status).toBe(400);
    expect(scheme.json.error).toMatch(/^actions\[0\]\.url: scheme file: is not supported/);
    const long = await scrape({
      url: `${site.origin}/browser/form`,
      actions: [{ type: 'waitForSelector', selector: 'p', timeout: 30_001 }],
    });
    expect(long.status).toBe(400);
  });
});
