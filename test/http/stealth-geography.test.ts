import { describe, expect, it } from 'vitest';
import { startGeoProxyProvider } from '../fixtures/geo-proxy-provider.ts';
import { BOT_DETECTORS, detectorUrl, worldsIn } from '../fixtures/site/routes/bot-detectors.ts';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { expectNoBrowsersLeft } from '../helpers/browsers.ts';
import { useFixture } from '../helpers/fixture.ts';
import { useServer } from '../helpers/server.ts';
import { CHROMIUM_RUNGS, expectNothingCaught, scrapeRawHtml } from '../helpers/stealth.ts';

expectNoBrowsersLeft();
const site = useFixture(() => startFixtureSite());
const provider = useFixture(() => startGeoProxyProvider(['DE', 'NL']));
/** de has its own exit; every other country leaves through the default (`*`) one. */
const t = useServer({
  settings: () => ({
    WEBDATA_PROXY_URLS: `DE=${provider.urls.DE},*=${provider.urls.NL}`,
    WEBDATA_BROWSER_POOL_SIZE: '1',
  }),
});

const scrape = (body: Record<string, unknown>) => scrapeRawHtml(t, body);

const GERMAN = {
  languages: ['de-DE'],
  locale: 'de-DE',
  timeZone: 'Europe/Berlin',
  januaryOffset: -60,
};

describe('a page asked for from a country speaks its language and keeps its time, in every world', () => {
  for (const rung of CHROMIUM_RUNGS)
    it(`presents de-DE and Europe/Berlin on ${rung} for proxy.country de`, async () => {
      const html = await scrape({
        url: `${site.origin}/fingerprint-worlds`,
        method: rung,
        proxy: { country: 'de' },
        actions: [{ type: 'wait', milliseconds: 2500 }],
      });
      const report = worldsIn(html);
      expect(report, 'the worlds report').toBeDefined();
      expect(report!.acceptLanguage).toBe('de-DE');
      const { main, iframe, worker, blobWorker, serviceWorker } = report!;
      expect(main).toMatchObject(GERMAN);
      for (const world of [iframe, worker, blobWorker]) expect(world).toEqual(main);
      expect(serviceWorker).toMatchObject(GERMAN);
      expect(provider.log.some((e) => e.country === 'DE')).toBe(true);
    });

  it('presents the asked country even when the default exit serves it (jp through `*`)', async () => {
    const html = await scrape({
      url: `${site.origin}/fingerprint-worlds`,
      method: 'browser',
      proxy: { country: 'JP' },
      actions: [{ type: 'wait', milliseconds: 2500 }],
    });
    const { main, worker } = worldsIn(html)!;
    expect(main).toMatchObject({
      languages: ['ja-JP'],
      locale: 'ja-JP',
      timeZone: 'Asia/Tokyo',
      januaryOffset: -540,
    });
    expect(worker).toEqual(main);
  });

  it('sends the country’s Accept-Language on the HTTP rung, and English without a country', async () => {
    const german = await scrape({
      url: `${site.origin}/fingerprint-worlds?rung=http`,
      method: 'http',
      proxy: { country: 'de' },
    });
    expect(german).toContain('acceptLanguage: "de-DE"');
    const plain = await scrape({
      url: `${site.origin}/fingerprint-worlds?rung=http2`,
      method: 'http',
    });
    expect(plain).toContain('acceptLanguage: "en-US,en;q=0.9"');
  });

  for (const rung of CHROMIUM_RUNGS)
    for (const detector of BOT_DETECTORS)
      it(`${detector} still catches nothing on ${rung} with a country`, async () => {
        const html = await scrape({
          url: detectorUrl(site.origin, detector),
          method: rung,
          proxy: { country: 'de' },
          actions: [{ type: 'wait', milliseconds: 2500 }],
        });
        expectNothingCaught(html);
      });
});
