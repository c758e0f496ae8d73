import { describe, expect, it } from 'vitest';
import { BOT_DETECTORS, detectorUrl, worldsIn } from '../fixtures/site/routes/bot-detectors.ts';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { expectNoBrowsersLeft } from '../helpers/browsers.ts';
import { useFixture } from '../helpers/fixture.ts';
import { useServer } from '../helpers/server.ts';
import {
  CHROMIUM_RUNGS,
  type ChromiumRung,
  expectNothingCaught,
  scrapeRawHtml,
} from '../helpers/stealth.ts';

expectNoBrowsersLeft();
const site = useFixture(() => startFixtureSite());
const t = useServer({ settings: { WEBDATA_BROWSER_POOL_SIZE: '1' } });

/** Scrapes `url` on `rung`, giving the page's scripts `waitMs` after load. */
const scrapeOn = (rung: ChromiumRung, url: string, waitMs: number) =>
  scrapeRawHtml(t, { url, method: rung, actions: [{ type: 'wait', milliseconds: waitMs }] });

describe('the open-source bot detectors, scraped through the API on each browser rung', () => {
  for (const rung of CHROMIUM_RUNGS)
    for (const detector of BOT_DETECTORS)
      it(`${detector} catches nothing on ${rung}`, async () => {
        expectNothingCaught(await scrapeOn(rung, detectorUrl(site.origin, detector), 2500));
      });
});

describe('one fingerprint across the page, its iframes and its workers', () => {
  for (const rung of CHROMIUM_RUNGS)
    it(`tells the same story in every world on ${rung}`, async () => {
      const html = await scrapeOn(rung, `${site.origin}/fingerprint-worlds`, 2500);
      const report = worldsIn(html);
      expect(report).toBeDefined();
      const { main, iframe, worker, blobWorker, serviceWorker, sharedWorker } = report!;
      for (const world of [iframe, worker, blobWorker]) expect(world).toEqual(main);
      // Service and shared workers start from the browser's defaults: their locale, clock and
      // WebGL strings are the page's; the user agent and languages only on the stealth rung; client
      // hints on neither (anti-bot.md, what is not covered).
      const { userAgent, languages, locale, timeZone, januaryOffset, webglVendor, webglRenderer } =
        main;
      for (const world of [serviceWorker, sharedWorker]) {
        expect(world).toMatchObject({
          locale,
          timeZone,
          januaryOffset,
          webglVendor,
          webglRenderer,
        });
        if (rung === 'browser-stealth') expect(world).toMatchObject({ userAgent, languages });
      }
      expect(report!.acceptLanguage).toBe('en-US,en;q=0.9');
      expect(main.userAgent).toMatch(
        /^Mozilla\/5\.0 \(X11; Linux x86_64\).* Chrome\/\d+\.0\.0\.0 /,
      );
      expect(main.userAgent).not.toMatch(/Headless/);
      expect(main.platform).toBe('Linux x86_64');
      expect(main.uaPlatform).toBe('Linux');
      expect(main.languages).toEqual(['en-US', 'en']);
      expect((main.brands as string[]).some((b) => b.startsWith('Google Chrome '))).toBe(true);
      expect(report!.secChUa).toMatch(/"Google Chrome";v="\d+"/);
      expect(main.webglRenderer).toEqual(expect.any(String));
      if (rung === 'browser-stealth') {
        expect(main.webglVendor).toBe('Google Inc. (Intel)');
        expect(main.webglRenderer).toMatch(/^ANGLE \(Intel, /);
      }
    });
});
