import { chromium as patchright } from 'patchright-core';
import { type Page, chromium as playwright } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BOT_DETECTORS, detectorUrl, verdictIn } from '../fixtures/site/routes/bot-detectors.ts';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { useServer } from '../helpers/server.ts';
import { expectNoSessionProcessesLeft } from './helpers.ts';

expectNoSessionProcessesLeft(() => t);
const site = useFixture(() => startFixtureSite());
const t = useServer({ settings: { WEBDATA_SESSION_WARM_SPARES: '0' } });

const CLIENTS = { playwright, patchright } as const;
type Client = keyof typeof CLIENTS;

/** Opens a session and hands its relay address to `drive`; the session is deleted after. */
async function withSession<T>(
  create: { headless: boolean; record?: boolean },
  drive: (wsUrl: string, id: string) => Promise<T>,
): Promise<T> {
  const created = await t.api('POST', '/api/v1/browser-sandbox/session', create);
  expect(created.status).toBe(200);
  const id = created.json.sessionId as string;
  try {
    const details = await t.api('GET', `/api/v1/browser-sandbox/session/${id}`);
    return await drive(details.json.wsUrl, id);
  } finally {
    await t.api('DELETE', `/api/v1/browser-sandbox/session/${id}`);
  }
}

/** What each detector caught, the session driven by `client` over the relay. */
function caughtThrough(
  client: Client,
  headless: boolean,
  record = false,
): Promise<Record<string, string[]>> {
  return withSession({ headless, record }, async (wsUrl, id) => {
    const browser = await CLIENTS[client].connectOverCDP(wsUrl);
    try {
      const context = browser.contexts()[0]!;
      const page = context.pages()[0] ?? (await context.newPage());
      const caught: Record<string, string[]> = {};
      for (const detector of BOT_DETECTORS) {
        await page.goto(detectorUrl(site.origin, detector));
        await page
          .locator('#webdata-verdict', { hasText: '"final":true' })
          .waitFor({ timeout: 20_000 });
        const verdict = verdictIn(await page.content());
        expect(verdict?.final).toBe(true);
        caught[detector] = verdict!.caught;
      }
      if (record) {
        // The verdicts come 1.5 s after load; the recorder, started once load is over, was there.
        const recording = await t.api('GET', `/api/v1/browser-sandbox/session/${id}/recording`);
        const snapshots = recording.json.events.filter((e: { type: number }) => e.type === 2);
        expect(snapshots.length).toBeGreaterThanOrEqual(BOT_DETECTORS.length);
      }
      return caught;
    } finally {
      await browser.close();
    }
  });
}

describe('the open-source bot detectors in a session browser, driven over the relay', () => {
  it('a visible session driven by patchright: every detector catches nothing', async () => {
    expect(await caughtThrough('patchright', false)).toEqual({
      'rebrowser-bot-detector': [],
      brotector: [],
      botd: [],
    });
  }, 120_000);

  it('a recorded visible session driven by patchright: the recorder shows to no detector', async () => {
    expect(await caughtThrough('patchright', false, true)).toEqual({
      'rebrowser-bot-detector': [],
      brotector: [],
      botd: [],
    });
  }, 120_000);

  it("a visible session driven by Playwright: only brotector, and only the client's own Runtime.enable", async () => {
    const caught = await caughtThrough('playwright', false);
    expect(caught['rebrowser-bot-detector']).toEqual([]);
    expect(caught.botd).toEqual([]);
    expect(caught.brotector!.length).toBeGreaterThan(0);
    for (const c of caught.brotector!) expect(c).toMatch(/^runtime\.enabled/);
  }, 120_000);

  for (const client of Object.keys(CLIENTS) as Client[])
    it(`a headless session driven by ${client}: only what the headless shell itself lacks`, async () => {
      expect(await caughtThrough(client, true)).toEqual({
        // The session's default window, Chromium's headless default, and the shell's missing
        // plugins and notification quirk, which the page pools patch by an init script.
        'rebrowser-bot-detector': ['viewport {"width":1280,"height":720}'],
        brotector: [],
        botd: [
          'detectNotificationPermissions:headless_chrome',
          'detectPluginsLengthInconsistency:headless_chrome',
        ],
      });
    }, 120_000);
});

/** The user agent and client-hint brands a page presents. */
async function presented(page: Page): Promise<{ userAgent: string; brands: string[] }> {
  await page.goto(`${site.origin}/fingerprint-worlds`);
  return page.evaluate(() => ({
    userAgent: navigator.userAgent,
    brands: (
      navigator as unknown as { userAgentData: { brands: { brand: string }[] } }
    ).userAgentData.brands.map((b) => b.brand),
  }));
}

describe("a session browser's client hints", () => {
  it("name Google Chrome on every page, popups and new contexts too, and a client's own user agent still wins", async () => {
    await withSession({ headless: true }, async (wsUrl) => {
      const browser = await playwright.connectOverCDP(wsUrl);
      try {
        const context = browser.contexts()[0]!;
        const page = context.pages()[0] ?? (await context.newPage());
        await page.goto(`${site.origin}/fingerprint-worlds`);
        const [popup] = await Promise.all([
          page.waitForEvent('popup'),
          page.evaluate(() => void window.open('/fingerprint-worlds')),
        ]);
        const fresh = await (await browser.newContext()).newPage();
        for (const p of [page, popup, fresh]) {
          const seen = await presented(p);
          expect(seen.userAgent).not.toMatch(/Headless/);
          expect(seen.brands).toContain('Google Chrome');
        }
        const own = await (await browser.newContext({ userAgent: 'Own/1.0' })).newPage();
        expect((await presented(own)).userAgent).toBe('Own/1.0');
      } finally {
        await browser.close();
      }
    });
  }, 120_000);
});
