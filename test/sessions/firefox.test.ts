import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { chromium } from 'playwright-core';
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { downloadBytes } from '../fixtures/site/routes/sessions.ts';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { waitFor } from '../helpers/poll.ts';
import { TEST_KEY, TEST_KEY_2, useServer } from '../helpers/server.ts';
import { expectNoSessionProcessesLeft, liveViewPixel } from './helpers.ts';

expectNoSessionProcessesLeft(() => t);
const site = useFixture(() => startFixtureSite());
const t = useServer();

const sha = (b: Buffer | Uint8Array) => createHash('sha256').update(b).digest('hex');
const SESSIONS = '/api/v1/browser-sandbox/session';

function connect(wsUrl: string): Promise<Browser> {
  return puppeteer.connect({ browserWSEndpoint: wsUrl, protocol: 'webDriverBiDi' });
}

async function processNames(sessionId: string): Promise<string[]> {
  const names: string[] = [];
  for (const pid of await t.server.services.sessions.processIds(sessionId))
    names.push((await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '')).trim());
  return names;
}

const opened: string[] = [];
afterEach(async () => {
  for (const id of opened.splice(0)) await t.api('DELETE', `${SESSIONS}/${id}`);
});

async function create(body: Record<string, unknown>): Promise<any> {
  const res = await t.api('POST', SESSIONS, { browser: 'firefox', ...body });
  expect(res.json.error).toBeUndefined();
  expect(res.status).toBe(200);
  opened.push(res.json.sessionId);
  return res.json;
}

describe('Firefox sessions over WebDriver BiDi', () => {
  it('Puppeteer navigates, types, uploads a file and takes a screenshot; host paths are refused', async () => {
    const created = await create({});
    expect(created).toMatchObject({ browser: 'firefox', liveViewUrl: null });
    expect(await processNames(created.sessionId)).toContain('firefox-esr');

    const doc = randomBytes(50_000);
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(doc)]), 'report.pdf');
    const uploaded = await fetch(`${t.base}${SESSIONS}/${created.sessionId}/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}` },
      body: form,
    });
    expect(uploaded.status).toBe(200);
    const { path } = (await uploaded.json()) as { path: string };

    const browser = await connect(created.wsUrl);
    let left = '';
    try {
      const page = await browser.newPage();
      await page.goto(`${site.origin}/session/upload`);
      await page.evaluate(() => {
        const input = document.createElement('input');
        input.id = 'typed';
        document.body.append(input);
      });
      await page.type('#typed', 'hello firefox');
      expect(await page.$eval('#typed', (e) => (e as HTMLInputElement).value)).toBe(
        'hello firefox',
      );
      expect(await page.evaluate(() => navigator.userAgent)).toMatch(/Firefox\/\d+/);
      const shot = await page.screenshot();
      expect(Buffer.from(shot).subarray(1, 4).toString()).toBe('PNG');

      const input = (await page.$('input'))!;
      await expect(input.uploadFile('/etc/hostname')).rejects.toThrow(/files folder/);
      await input.uploadFile(path);
      await Promise.all([page.waitForNavigation(), page.click('#send')]);
      expect(await page.$eval('#name', (e) => e.textContent)).toBe('report.pdf');
      expect(await page.$eval('#sha', (e) => e.textContent)).toBe(sha(doc));

      // Local schemes are refused before they reach the browser.
      await expect(page.goto('file:///etc/passwd')).rejects.toThrow(/only http, https/);
      // Every request of the browser goes through the egress proxy, which refuses the metadata address.
      await page.goto('http://169.254.169.254/latest/meta-data/').catch(() => undefined);
      expect(
        t.server.services.browser.proxy.refusals().some((m) => m.includes('169.254.169.254')),
      ).toBe(true);
      left = page.url();
    } finally {
      await browser.disconnect();
    }

    // The browser's one BiDi session is the service's: a second client connects after the first.
    const again = await connect(created.wsUrl);
    const pages = await again.pages();
    expect(pages.map((p) => p.url())).toContain(left);
    await again.disconnect();
  });

  it("a page's download is listed and fetched back byte-identical; another key's files are 404", async () => {
    const created = await create({});
    const browser = await connect(created.wsUrl);
    try {
      const page = await browser.newPage();
      await page.goto(`${site.origin}/session/download-page`);
      await page.click('#d');
      const listed = await waitFor(async () => {
        const res = await t.api('GET', `${SESSIONS}/${created.sessionId}/files`);
        // Firefox puts the file's name down when the download starts and fills it at the end.
        return res.json.files.find(
          (f: { name: string; size: number }) =>
            f.name === 'report.bin' && f.size === downloadBytes().length,
        );
      });
      const res = await fetch(`${t.base}${SESSIONS}/${created.sessionId}/files/${listed.name}`, {
        headers: { authorization: `Bearer ${TEST_KEY}` },
      });
      expect(sha(Buffer.from(await res.arrayBuffer()))).toBe(sha(downloadBytes()));
      const other = await t.api(
        'GET',
        `${SESSIONS}/${created.sessionId}/files`,
        undefined,
        TEST_KEY_2,
      );
      expect(other.status).toBe(404);
    } finally {
      await browser.disconnect();
    }
  });

  it('one client at a time; a close saves cookies and a resume brings them back', async () => {
    const created = await create({});
    const browser = await connect(created.wsUrl);
    const refused = await new Promise<number>((resolve) => {
      const ws = new WebSocket(created.wsUrl);
      ws.on('close', (code) => resolve(code));
    });
    expect(refused).toBe(1013);
    const page = await browser.newPage();
    await page.goto(`${site.origin}/session/color`);
    await page.evaluate(() => {
      document.cookie = 'kept=yes; max-age=3600; path=/';
    });
    await browser.disconnect();

    const closed = await t.api('DELETE', `${SESSIONS}/${created.sessionId}`);
    expect(closed.json).toMatchObject({ status: 'closed', hasStorageState: true });
    expect(closed.json.lastUrl).toBe(`${site.origin}/session/color`);
    const resumed = await t.api('POST', `${SESSIONS}/${created.sessionId}/resume`);
    expect(resumed.json).toMatchObject({ browser: 'firefox' });
    const back = await connect(resumed.json.wsUrl);
    try {
      const again = await back.newPage();
      await again.goto(`${site.origin}/session/color`);
      expect(await again.evaluate(() => document.cookie)).toContain('kept=yes');
    } finally {
      await back.disconnect();
    }
  });

  it('a visible Firefox session shows its page through the live view', async () => {
    const created = await create({ headless: false });
    expect(created.liveViewUrl).toMatch(/\/live-view\?sessionId=.+&token=/);
    const remote = await connect(created.wsUrl);
    const viewer = await chromium.launch({ executablePath: '/usr/bin/chromium-headless-shell' });
    try {
      const page = (await remote.pages())[0] ?? (await remote.newPage());
      await page.goto(`${site.origin}/session/color`);
      const view = await viewer.newPage();
      expect(await liveViewPixel(view, created.liveViewUrl)).toEqual([255, 0, 170]);
    } finally {
      await viewer.close();
      await remote.disconnect();
    }
  });

  it('what a Firefox session cannot be asked for is a 400 naming the field', async () => {
    for (const [body, field] of [
      [{ browser: 'firefox', profile: { name: 'work' } }, 'profile'],
      [{ browser: 'firefox', record: true }, 'record'],
      [{ browser: 'camoufox' }, 'browser'],
    ] as const) {
      const res = await t.api('POST', SESSIONS, body);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.json)).toContain(field);
    }
    const camoufox = await t.api('POST', SESSIONS, { browser: 'camoufox' });
    expect(JSON.stringify(camoufox.json)).toMatch(/available: chromium, firefox/);
  });
});
