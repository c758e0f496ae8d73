import { describe, expect, it } from 'vitest';
import {
  BOT_DETECTORS,
  detectorUrl,
  verdictIn,
  worldsIn,
} from '../fixtures/site/routes/bot-detectors.ts';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { expectNoBrowsersLeft } from '../helpers/browsers.ts';
import { useFixture } from '../helpers/fixture.ts';
import { useServer } from '../helpers/server.ts';

expectNoBrowsersLeft();
const site = useFixture(() => startFixtureSite());
const t = useServer({ settings: { WEBDATA_BROWSER_POOL_SIZE: '1' } });

type Rung = 'browser' | 'browser-stealth';
const RUNGS: Rung[] = ['browser', 'browser-stealth'];

/** Scrapes `url` on `rung`, giving the page's scripts `waitMs` after load. */
async function scrapeOn(rung: Rung, url: string, waitMs: number): Promise<string> {
  const { status, json } = await t.api('POST', '/api/v1/scrape/single', {
    url,
    method: rung,
    formats: ['rawHtml'],
    actions: [{ type: 'wait', milliseconds: waitMs }],
  });
  expect(status).toBe(200);
  expect(json.success, json.error).toBe(true);
  expect(json.method).toBe(rung);
  return json.rawHtml as string;
}

describe('the open-source bot detectors, scraped through the API on each browser rung', () => {
  for (const rung of RUNGS)
    for (const detector of BOT_DETECTORS)
      it(`${detector} catches nothing on ${rung}`, async () => {
        const html = await scrapeOn(rung, detectorUrl(site.origin, detector), 2500);
        const verdict = verdictIn(html);
        expect(verdict?.final).toBe(true);
        expect(verdict?.caught).toEqual([]);
        expect(verdict?.pass).toBe(true);
      });
});

describe('one fingerprint across the page, its iframes and its workers', () => {
  for (const rung of RUNGS)
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
