import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { waitFor } from '../helpers/poll.ts';
import { TEST_KEY, TEST_KEY_2, useServer } from '../helpers/server.ts';
import { expectNoSessionProcessesLeft } from './helpers.ts';

expectNoSessionProcessesLeft(() => t);
const site = useFixture(() => startFixtureSite());
const t = useServer({ settings: { WEBDATA_SESSION_RECORDING_RETENTION_MS: String(10 * 60_000) } });

const run = promisify(execFile);
const PASSWORD = 'hunter2-Secret-9f3k';
const USER_NAME = 'alice-typed-7q2w';

interface RrwebEvent {
  type: number;
  pageId: number;
  timestamp: number;
  data: { source?: number; text?: string; node?: unknown };
}

async function recording(id: string, key = TEST_KEY) {
  const res = await fetch(`${t.base}/api/v1/browser-sandbox/session/${id}/recording`, {
    headers: { authorization: `Bearer ${key}` },
  });
  const text = await res.text();
  return { status: res.status, text, json: JSON.parse(text) };
}

/** The text of every full snapshot, page by page, in order. */
function snapshotTexts(events: RrwebEvent[]): string[] {
  return events.filter((e) => e.type === 2).map((e) => JSON.stringify(e.data.node));
}

/** The recorder starts once a page has loaded; typing is recorded from then on. */
function recorderStarted(id: string, text: string): Promise<unknown> {
  return waitFor(
    async () => snapshotTexts((await recording(id)).json.events).some((s) => s.includes(text)),
    { what: `a full snapshot with ${text}` },
  );
}

async function create(body: object = { record: true }) {
  const created = await t.api('POST', '/api/v1/browser-sandbox/session', body);
  expect(created.status, JSON.stringify(created.json)).toBe(200);
  return created.json as { sessionId: string; wsUrl: string };
}

describe('session recording', () => {
  let sessionId: string;
  let replayToken: string;
  let closedText: string;

  it('records both pages a Playwright client visits, with typed inputs masked', async () => {
    ({ sessionId } = await create());
    const { wsUrl } = (await t.api('GET', `/api/v1/browser-sandbox/session/${sessionId}`)).json;
    const browser = await chromium.connectOverCDP(wsUrl);
    const context = browser.contexts()[0]!;
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${site.origin}/session/record-one`);
    await recorderStarted(sessionId, 'Alpha sign-in page');
    await page.fill('#user', USER_NAME);
    await page.locator('#pw').pressSequentially(PASSWORD);
    await page.click('#next');
    await page.waitForURL('**/session/record-two');
    await page.locator('#p').waitFor();
    await browser.close();

    const live = await recording(sessionId);
    expect(live.status).toBe(200);
    const events = live.json.events as RrwebEvent[];
    const texts = snapshotTexts(events);
    expect(texts.some((s) => s.includes('Alpha sign-in page'))).toBe(true);
    expect(texts.some((s) => s.includes('Bravo welcome page'))).toBe(true);
    // Typing reached the recorder (as masked input events), and neither typed text was stored.
    const inputs = events.filter((e) => e.type === 3 && e.data.source === 5);
    expect(inputs.length).toBeGreaterThan(0);
    expect(inputs.every((e) => /^\**$/.test(e.data.text ?? ''))).toBe(true);
    expect(live.text).not.toContain(PASSWORD);
    expect(live.text).not.toContain(USER_NAME);
    expect(live.json.truncated).toBe(false);
    const replayUrl = new URL(live.json.replayUrl);
    expect(replayUrl.pathname).toBe('/replay');
    expect(Object.fromEntries(replayUrl.searchParams)).toEqual({
      sessionId,
      token: live.json.token,
    });
    replayToken = live.json.token;

    const closed = await t.api('DELETE', `/api/v1/browser-sandbox/session/${sessionId}`);
    expect(closed.status).toBe(200);
    const after = await recording(sessionId);
    expect(after.status).toBe(200);
    expect(after.json.events.length).toBeGreaterThanOrEqual(events.length);
    expect(after.text).not.toContain(PASSWORD);
    closedText = JSON.stringify(after.json.events);
  }, 120_000);

  it("is another key's to neither read nor replay (404)", async () => {
    expect((await recording(sessionId, TEST_KEY_2)).status).toBe(404);
    const byOtherKey = await fetch(
      `${t.base}/replay/recording?sessionId=${sessionId}&token=${TEST_KEY_2}`,
    );
    expect(byOtherKey.status).toBe(404);
    const other = await create({});
    const tokenForOther = await fetch(
      `${t.base}/replay/recording?sessionId=${other.sessionId}&token=${encodeURIComponent(replayToken)}`,
    );
    expect(tokenForOther.status).toBe(404);
    // A session created without record: true has nothing to read.
    expect((await recording(other.sessionId)).status).toBe(404);
    await t.api('DELETE', `/api/v1/browser-sandbox/session/${other.sessionId}`);
    const forged = await fetch(
      `${t.base}/replay/recording?sessionId=${sessionId}&token=${replayToken.slice(0, -2)}AA`,
    );
    expect(forged.status).toBe(404);
  }, 60_000);

  it('opens with the replay token and with the owner key', async () => {
    for (const token of [replayToken, TEST_KEY]) {
      const res = await fetch(
        `${t.base}/replay/recording?sessionId=${sessionId}&token=${encodeURIComponent(token)}`,
      );
      expect(res.status).toBe(200);
      expect(JSON.stringify((await res.json()).events)).toBe(closedText);
    }
  });

  it('serves a replay page that loads nothing from elsewhere and replays the first page', async () => {
    const url = `${t.base}/replay?sessionId=${sessionId}&token=${encodeURIComponent(replayToken)}`;
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await res.text();
    expect(html).not.toMatch(/(https?:)?\/\/[a-z0-9]/i);
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBe(4);
    for (const asset of assets) {
      const a = await fetch(new URL(asset, url));
      expect(a.status, asset).toBe(200);
    }

    const viewer = await chromium.launch({ executablePath: '/usr/bin/chromium-headless-shell' });
    try {
      const page = await viewer.newPage();
      const elsewhere: string[] = [];
      page.on('request', (r) => {
        if (!r.url().startsWith(t.base) && !/^(data|blob|about):/.test(r.url()))
          elsewhere.push(r.url());
      });
      await page.goto(url);
      await page.waitForFunction(() => document.body.dataset.state !== 'loading', undefined, {
        timeout: 30_000,
      });
      expect(await page.evaluate(() => document.body.dataset.state)).toBe('ready');
      const frame = page.frameLocator('iframe');
      await expect
        .poll(() => frame.locator('body').textContent(), { timeout: 30_000 })
        .toContain('Alpha sign-in page');
      expect(elsewhere).toEqual([]);
    } finally {
      await viewer.close();
    }
  }, 120_000);

  it('records what a Puppeteer client types as masked, keeps it across a restart, and removes it past retention', async () => {
    const { sessionId: id, wsUrl } = await create();
    const browser = await puppeteer.connect({ browserWSEndpoint: wsUrl });
    const page = await browser.newPage();
    await page.goto(`${site.origin}/session/record-one`);
    await recorderStarted(id, 'Alpha sign-in page');
    await page.type('#pw', PASSWORD);
    // The typing is stored before the page is left: what a document sends in its last moments
    // is not what this test is about, and a loaded machine can delay it past the navigation.
    await waitFor(
      async () =>
        (await recording(id)).json.events.some(
          (e: RrwebEvent) => e.type === 3 && e.data.source === 5,
        ),
      { what: 'the masked input events' },
    );
    await page.goto(`${site.origin}/session/record-two`);
    await page.waitForSelector('#p');
    await browser.disconnect();
    await t.api('DELETE', `/api/v1/browser-sandbox/session/${id}`);

    await t.stop();
    await t.start();
    const after = await recording(id);
    expect(after.status).toBe(200);
    const texts = snapshotTexts(after.json.events);
    expect(texts.some((s) => s.includes('Alpha sign-in page'))).toBe(true);
    expect(texts.some((s) => s.includes('Bravo welcome page'))).toBe(true);
    expect(after.text).not.toContain(PASSWORD);
    expect(after.json.events.some((e: RrwebEvent) => e.type === 3 && e.data.source === 5)).toBe(
      true,
    );

    // Its last event an hour ago, past the 10 minutes kept: the next start removes it.
    const root = join(t.dataDir, 'session-recordings');
    const [user] = await readdir(root);
    const hourAgo = new Date(Date.now() - 3_600_000);
    await utimes(join(root, user!, id, 'events.ndjson'), hourAgo, hourAgo);
    await t.stop();
    await t.start();
    expect((await recording(id)).status).toBe(404);
  }, 120_000);

  it('stops recording a document too large to record, and records the next one', async () => {
    const { sessionId: id, wsUrl } = await create();
    const browser = await chromium.connectOverCDP(wsUrl);
    const context = browser.contexts()[0]!;
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${site.origin}/session/record-huge`);
    const stopped = (events: { type: number; data: { tag?: string } }[]) =>
      events.some((e) => e.type === 5 && e.data.tag === 'webdata-stopped');
    await waitFor(async () => stopped((await recording(id)).json.events), {
      what: 'the webdata-stopped event',
      timeoutMs: 30_000,
    });
    await page.goto(`${site.origin}/session/record-two`);
    await recorderStarted(id, 'Bravo welcome page');
    await browser.close();
    expect((await recording(id)).json.bytes).toBeLessThan(1024 * 1024);
    await t.api('DELETE', `/api/v1/browser-sandbox/session/${id}`);
  }, 120_000);

  it("records a visible session's display as WebM, given back once the session is closed", async () => {
    const headless = await t.api('POST', '/api/v1/browser-sandbox/session', {
      record: { video: true },
    });
    expect(headless.status).toBe(400);
    expect(JSON.stringify(headless.json)).toContain('record.video');

    const { sessionId: id, wsUrl } = await create({ headless: false, record: { video: true } });
    const browser = await chromium.connectOverCDP(wsUrl);
    const context = browser.contexts()[0]!;
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${site.origin}/session/color`);
    await recorderStarted(id, 'Colour');
    // A few frames of the page at 5 a second.
    await new Promise((r) => setTimeout(r, 1500));
    await browser.close();
    const webm = () =>
      fetch(`${t.base}/api/v1/browser-sandbox/session/${id}/recording.webm`, {
        headers: { authorization: `Bearer ${TEST_KEY}` },
      });
    expect((await webm()).status).toBe(409);
    await t.api('DELETE', `/api/v1/browser-sandbox/session/${id}`);

    const res = await webm();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/webm');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 4).toString('hex')).toBe('1a45dfa3');
    // The last frame, averaged to one pixel, is the page's colour (#ff00aa).
    const dir = await mkdtemp(join(tmpdir(), 'wd-video-'));
    try {
      await writeFile(join(dir, 'v.webm'), bytes);
      const { stdout } = await run(
        'ffmpeg',
        [
          '-v',
          'error',
          '-sseof',
          '-1',
          '-i',
          join(dir, 'v.webm'),
          '-vf',
          'scale=1:1',
          '-frames:v',
          '1',
          '-f',
          'rawvideo',
          '-pix_fmt',
          'rgb24',
          '-',
        ],
        { encoding: 'buffer' },
      );
      const [r, g, b] = [...stdout.subarray(-3)];
      expect(r).toBeGreaterThan(200);
      expect(g).toBeLessThan(60);
      expect(b).toBeGreaterThan(120);
      expect(b).toBeLessThan(220);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const other = await fetch(`${t.base}/api/v1/browser-sandbox/session/${id}/recording.webm`, {
      headers: { authorization: `Bearer ${TEST_KEY_2}` },
    });
    expect(other.status).toBe(404);
  }, 120_000);
});

describe('session recording on Postgres', () => {
  const pg = useServer({ backend: 'postgres' });

  it('a resumed recorded session goes on recording into the same recording', async () => {
    const created = await pg.api('POST', '/api/v1/browser-sandbox/session', { record: true });
    expect(created.status).toBe(200);
    const id = created.json.sessionId as string;
    const read = async (key = TEST_KEY) =>
      pg.api('GET', `/api/v1/browser-sandbox/session/${id}/recording`, undefined, key);
    const visit = async (wsUrl: string, path: string, text: string) => {
      const browser = await chromium.connectOverCDP(wsUrl);
      const context = browser.contexts()[0]!;
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(`${site.origin}${path}`);
      await waitFor(async () =>
        snapshotTexts((await read()).json.events).some((s) => s.includes(text)),
      );
      await browser.close();
    };
    await visit(created.json.wsUrl, '/session/record-one', 'Alpha sign-in page');
    expect((await pg.api('DELETE', `/api/v1/browser-sandbox/session/${id}`)).status).toBe(200);
    const resumed = await pg.api('POST', `/api/v1/browser-sandbox/session/${id}/resume`);
    expect(resumed.status).toBe(200);
    await visit(resumed.json.wsUrl, '/session/record-two', 'Bravo welcome page');
    await pg.api('DELETE', `/api/v1/browser-sandbox/session/${id}`);

    const texts = snapshotTexts((await read()).json.events);
    const alpha = texts.findIndex((s) => s.includes('Alpha sign-in page'));
    const bravo = texts.findIndex((s) => s.includes('Bravo welcome page'));
    expect(alpha).toBeGreaterThanOrEqual(0);
    expect(bravo).toBeGreaterThan(alpha);
    expect((await read(TEST_KEY_2)).status).toBe(404);
  }, 120_000);
});
