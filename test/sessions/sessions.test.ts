import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { SessionStore } from '../../src/store/index.ts';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { waitFor } from '../helpers/poll.ts';
import { TEST_KEY_2, useServer } from '../helpers/server.ts';
import { expectNoSessionProcessesLeft, liveViewPixel, upgradeStatus } from './helpers.ts';

expectNoSessionProcessesLeft(() => t);
const site = useFixture(() => startFixtureSite());
const t = useServer({
  settings: { WEBDATA_SESSIONS_MAX_PER_USER: '2', WEBDATA_SESSION_WARM_SPARES: '1' },
});

describe('browser sessions over CDP', () => {
  let sessionId: string;

  it('Playwright drives a page through wsUrl; close saves cookies and localStorage and stops billing', async () => {
    const created = await t.api('POST', '/api/v1/browser-sandbox/session', {});
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({
      browser: 'chromium',
      width: 1280,
      height: 720,
      costPerMin: 0.002,
      liveViewUrl: null,
    });
    expect(created.json.wsUrl).toMatch(
      /^ws:\/\/localhost:\d+\/browser-sandbox-ws\?sessionId=[\w-]+&token=[\w-]{40,}$/,
    );
    sessionId = created.json.sessionId;

    const browser = await chromium.connectOverCDP(created.json.wsUrl);
    const context = browser.contexts()[0]!;
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${site.origin}/session/app`);
    await page.click('#b');
    expect(await page.textContent('#b')).toBe('clicked');
    // The session's browser goes out through the SSRF egress proxy: metadata addresses are refused.
    const metadata = await page.goto('http://169.254.169.254/latest/meta-data/');
    expect(metadata?.status()).toBe(403);
    expect(metadata?.headers()['x-webdata-blocked']).toBe('1');
    await page.goto(`${site.origin}/session/app`);
    await page.evaluate(() => {
      document.cookie = 'flavour=oatmeal; path=/; max-age=3600';
      document.cookie = 'tab=only-this-session; path=/';
      localStorage.setItem('greeting', 'hello again');
    });
    // A second origin (same server by another name): the first is no longer open in any page at
    // close, so its storage must be read through the service's hidden page.
    await page.goto(`http://localhost:${site.port}/session/app`);
    await page.evaluate(() => localStorage.setItem('other', 'origin'));
    await browser.close();

    const details = await t.api('GET', `/api/v1/browser-sandbox/session/${sessionId}`);
    expect(details.json).toMatchObject({
      status: 'active',
      headless: true,
      proxy: false,
      lastUrl: `http://localhost:${site.port}/session/app`,
      closeReason: null,
      hasStorageState: false,
    });
    expect(details.json.wsUrl).toBe(created.json.wsUrl);

    const closed = await t.api('DELETE', `/api/v1/browser-sandbox/session/${sessionId}`);
    expect(closed.status).toBe(200);
    expect(closed.json).toMatchObject({
      status: 'closed',
      closeReason: 'manual',
      hasStorageState: true,
    });
    expect(closed.json.totalCost).toBeGreaterThan(0);
    // Per started second at 0.002/min: a few seconds cost a few hundredths of a cent at most.
    expect(closed.json.totalCost).toBeLessThan(0.002);
    expect(await upgradeStatus(created.json.wsUrl)).toBe(404);

    const later = await t.api('GET', `/api/v1/browser-sandbox/session/${sessionId}`);
    expect(later.json.totalCost).toBe(closed.json.totalCost);
    const ledger = await t.server.ledger.forUser((await t.server.keys.list())[0]!.userId);
    const rows = ledger.filter((r) => r.ref === sessionId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ operation: 'session' });
    expect(rows[0]!.costMicros / 1e6).toBe(closed.json.totalCost);
  });

  it('resume gives the same session a fresh wsUrl and its saved state, driven by Puppeteer', async () => {
    const first = await t.api('GET', `/api/v1/browser-sandbox/session/${sessionId}`);
    const resumed = await t.api('POST', `/api/v1/browser-sandbox/session/${sessionId}/resume`);
    expect(resumed.status).toBe(200);
    expect(resumed.json.sessionId).toBe(sessionId);
    expect(resumed.json.wsUrl).not.toBe(first.json.wsUrl);
    expect((await t.api('GET', `/api/v1/browser-sandbox/session/${sessionId}`)).json).toMatchObject(
      { status: 'active', closeReason: null, closedAt: null },
    );

    const browser = await puppeteer.connect({ browserWSEndpoint: resumed.json.wsUrl });
    const page = await browser.newPage();
    await page.goto(`${site.origin}/session/app`);
    expect(await page.$eval('#h', (e) => e.textContent)).toBe('Hello session');
    const seen = await page.evaluate(() => ({
      cookie: document.cookie,
      greeting: localStorage.getItem('greeting'),
    }));
    expect(seen.greeting).toBe('hello again');
    expect(seen.cookie).toContain('flavour=oatmeal');
    expect(seen.cookie).toContain('tab=only-this-session');
    await page.goto(`http://localhost:${site.port}/session/app`);
    expect(
      await page.evaluate(() => [localStorage.getItem('other'), localStorage.getItem('greeting')]),
    ).toEqual(['origin', null]);
    await page.evaluate(() => localStorage.setItem('other', 'changed'));
    // Puppeteer's browser.close() ends the session like DELETE: state saved, closeReason manual.
    await browser.close();
    const closed = await waitFor(async () => {
      const d = (await t.api('GET', `/api/v1/browser-sandbox/session/${sessionId}`)).json;
      return d.status === 'closed' && d;
    });
    expect(closed).toMatchObject({
      status: 'closed',
      closeReason: 'manual',
      hasStorageState: true,
    });
    expect((await t.api('DELETE', `/api/v1/browser-sandbox/session/${sessionId}`)).json).toEqual(
      closed,
    );
    const saved = JSON.parse(
      (await new SessionStore(t.server.database.db).get(sessionId))!.storage_state!,
    );
    expect(saved.origins).toContainEqual({
      origin: `http://localhost:${site.port}`,
      localStorage: [{ name: 'other', value: 'changed' }],
    });
    // Both active periods are billed, each per started second.
    expect(closed.totalCost).toBeGreaterThan(first.json.totalCost);
  });

  it("keeps one user's session from every other user, and refuses wrong tokens at upgrade", async () => {
    const mine = (
      await t.api('POST', '/api/v1/browser-sandbox/session', { width: 1024, height: 768 })
    ).json;
    const theirs = (await t.api('POST', '/api/v1/browser-sandbox/session', {}, TEST_KEY_2)).json;
    try {
      for (const [method, path] of [
        ['GET', `/api/v1/browser-sandbox/session/${mine.sessionId}`],
        ['DELETE', `/api/v1/browser-sandbox/session/${mine.sessionId}`],
        ['POST', `/api/v1/browser-sandbox/session/${mine.sessionId}/resume`],
      ] as const) {
        expect((await t.api(method, path, undefined, TEST_KEY_2)).status).toBe(404);
      }
      const base = new URL(mine.wsUrl);
      const theirToken = new URL(theirs.wsUrl).searchParams.get('token')!;
      const withToken = (token: string | null) => {
        const u = new URL(base);
        if (token === null) u.searchParams.delete('token');
        else u.searchParams.set('token', token);
        return u.href;
      };
      expect(await upgradeStatus(withToken(theirToken))).toBe(401);
      expect(await upgradeStatus(withToken('not-the-token'))).toBe(401);
      expect(await upgradeStatus(withToken(null))).toBe(401);
      // A token given twice is no token, not a server error.
      const mineToken = base.searchParams.get('token')!;
      expect(await upgradeStatus(`${withToken(mineToken)}&token=${mineToken}`)).toBe(401);
      expect(await upgradeStatus(`${withToken(mineToken)}&sessionId=${mine.sessionId}`)).toBe(404);
      expect(
        await upgradeStatus(`ws://127.0.0.1:${t.port}/browser-sandbox-ws?sessionId=nope&token=x`),
      ).toBe(404);
      expect(await upgradeStatus(mine.wsUrl)).toBe(101);

      // The public list shows the sessions but nothing that opens them.
      const list = await t.api('GET', '/api/v1/browser-sandbox/sessions', undefined, null);
      expect(list.status).toBe(200);
      expect(list.json.count).toBe(2);
      const text = JSON.stringify(list.json);
      expect(text).not.toContain(new URL(mine.wsUrl).searchParams.get('token')!);
      expect(text).not.toContain(theirToken);
      expect(text).not.toContain('ws://');

      // Per-user limit is 2 in this server: a third is 429 with Retry-After.
      const third = await t.api('POST', '/api/v1/browser-sandbox/session', {});
      const fourth = await t.api('POST', '/api/v1/browser-sandbox/session', {});
      expect(third.status).toBe(200);
      expect(fourth.status).toBe(429);
      expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0);
      await t.api('DELETE', `/api/v1/browser-sandbox/session/${third.json.sessionId}`);
    } finally {
      await t.api('DELETE', `/api/v1/browser-sandbox/session/${mine.sessionId}`);
      await t.api(
        'DELETE',
        `/api/v1/browser-sandbox/session/${theirs.sessionId}`,
        undefined,
        TEST_KEY_2,
      );
    }
  });

  it('refuses CDP commands that reach into the host or around the egress proxy', async () => {
    const created = (await t.api('POST', '/api/v1/browser-sandbox/session', {})).json;
    const browser = await chromium.connectOverCDP(created.wsUrl);
    try {
      const context = browser.contexts()[0]!;
      const page = context.pages()[0] ?? (await context.newPage());
      await expect(page.goto('file:///etc/hostname')).rejects.toThrow(/only http, https/);
      const cdp = await browser.newBrowserCDPSession();
      await expect(
        cdp.send('Target.createTarget', { url: 'file:///etc/hostname' }),
      ).rejects.toThrow(/only http, https/);
      await expect(
        cdp.send('Target.createBrowserContext', { proxyServer: 'http://203.0.113.9:8080' }),
      ).rejects.toThrow(/proxyServer/);
      await expect(
        cdp.send('Target.setRemoteLocations', { locations: [{ host: '127.0.0.1', port: 9222 }] }),
      ).rejects.toThrow(/debugging endpoints/);
      const pageCdp = await context.newCDPSession(page);
      await expect(
        pageCdp.send('DOM.setFileInputFiles', { files: ['/etc/hostname'], backendNodeId: 1 }),
      ).rejects.toThrow(/only files of the session's files folder/);
      // Dropping files onto a page is the other way host files reach a page's scripts.
      await page.setContent(`<div id="drop" style="width:400px;height:400px"></div><script>
        drop.ondragover = (e) => e.preventDefault();
        drop.ondrop = async (e) => { e.preventDefault(); drop.textContent = 'read:' + await e.dataTransfer.files[0].text(); };
      </script>`);
      const drag = {
        x: 50,
        y: 50,
        data: { items: [], files: ['/etc/hostname'], dragOperationsMask: 1 },
      };
      for (const type of ['dragEnter', 'dragOver', 'drop']) {
        await expect(
          pageCdp.send('Input.dispatchDragEvent', { type: type as 'drop', ...drag }),
        ).rejects.toThrow(/not allowed/);
      }
      expect(await page.textContent('#drop')).toBe('');
      // The session still works for everything else.
      await page.goto(`${site.origin}/session/app`);
      expect(await page.textContent('#h')).toBe('Hello session');
    } finally {
      await browser.close();
    }
    // A frame the policy cannot parse never reaches the browser: the connection is closed.
    const ws = new WebSocket(created.wsUrl);
    await once(ws, 'open');
    ws.send('{"id":1,"method":"Page.navigate","params":{"url":"file:///etc/hostname"},}');
    const [code] = (await once(ws, 'close')) as [number];
    expect(code).toBe(1007);
    await t.api('DELETE', `/api/v1/browser-sandbox/session/${created.sessionId}`);
  });

  it('validates the create request', async () => {
    const narrow = await t.api('POST', '/api/v1/browser-sandbox/session', { width: 640 });
    expect(narrow.status).toBe(400);
    expect(narrow.json.details[0].field).toBe('width');
    const camoufox = await t.api('POST', '/api/v1/browser-sandbox/session', {
      browser: 'camoufox',
    });
    expect(camoufox.status).toBe(400);
    expect(camoufox.json.error).toMatch(/^browser: .*available: chromium/);
    expect((await t.api('POST', '/api/v1/browser-sandbox/session', { colour: 'red' })).status).toBe(
      400,
    );
    expect((await t.api('POST', '/api/v1/browser-sandbox/session', {}, null)).status).toBe(401);
    expect((await t.api('GET', '/api/v1/browser-sandbox/session/does-not-exist')).status).toBe(404);
  });

  it('closes a session whose browser dies with closeReason error', async () => {
    const created = (await t.api('POST', '/api/v1/browser-sandbox/session', {})).json;
    const pids = await t.server.services.sessions.processIds(created.sessionId);
    let main = 0;
    for (const pid of pids) {
      const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
      const comm = (await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '')).trim();
      // The browser itself, not its sandbox (bwrap) or Debian's launcher script (sh).
      if (
        cmdline.includes('--remote-debugging-pipe') &&
        !cmdline.includes('--type=') &&
        comm.startsWith('chrom')
      )
        main = pid;
    }
    expect(main).toBeGreaterThan(0);
    process.kill(main, 'SIGKILL');
    const details = await waitFor(async () => {
      const d = (await t.api('GET', `/api/v1/browser-sandbox/session/${created.sessionId}`)).json;
      return d.status === 'closed' && d;
    });
    expect(details.closeReason).toBe('error');
    expect(await upgradeStatus(created.wsUrl)).toBe(404);
  });
});

describe('live view', () => {
  it('shows the visible session page through noVNC in a real browser', async () => {
    const res = await t.api('POST', '/api/v1/browser-sandbox/session', { headless: false });
    expect(res.json.error).toBeUndefined();
    const created = res.json;
    expect(created.costPerMin).toBe(0.01);
    expect(created.liveViewUrl).toMatch(/\/live-view\?sessionId=.+&token=/);
    const remote = await chromium.connectOverCDP(created.wsUrl);
    const viewer = await chromium.launch({ executablePath: '/usr/bin/chromium-headless-shell' });
    try {
      const page = remote.contexts()[0]!.pages()[0] ?? (await remote.contexts()[0]!.newPage());
      await page.goto(`${site.origin}/session/color`);

      const view = await viewer.newPage();
      expect(await liveViewPixel(view, created.liveViewUrl)).toEqual([255, 0, 170]);
      const vncRunning = async () => {
        for (const pid of await t.server.services.sessions.processIds(created.sessionId)) {
          if ((await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '')).startsWith('x11vnc'))
            return true;
        }
        return false;
      };
      expect(await vncRunning()).toBe(true);
      await view.close();
      // The VNC server stops with its last viewer.
      await waitFor(async () => !(await vncRunning()));
    } finally {
      await viewer.close();
      await remote.close();
      await t.api('DELETE', `/api/v1/browser-sandbox/session/${created.sessionId}`);
    }
  });
});

describe('restart', () => {
  it('saves active sessions at shutdown (closeReason error) and resumes them after a restart', async () => {
    const created = (await t.api('POST', '/api/v1/browser-sandbox/session', {})).json;
    const browser = await chromium.connectOverCDP(created.wsUrl);
    const page = browser.contexts()[0]!.pages()[0] ?? (await browser.contexts()[0]!.newPage());
    await page.goto(`${site.origin}/session/app`);
    await page.evaluate(() => localStorage.setItem('survives', 'restart'));
    await browser.close();
    await t.stop();

    await t.start();
    const after = (await t.api('GET', `/api/v1/browser-sandbox/session/${created.sessionId}`)).json;
    expect(after).toMatchObject({ status: 'closed', closeReason: 'error', hasStorageState: true });
    const resumed = (
      await t.api('POST', `/api/v1/browser-sandbox/session/${created.sessionId}/resume`)
    ).json;
    const again = await puppeteer.connect({ browserWSEndpoint: resumed.wsUrl });
    const p2 = await again.newPage();
    await p2.goto(`${site.origin}/session/app`);
    expect(await p2.evaluate(() => localStorage.getItem('survives'))).toBe('restart');
    await again.disconnect();
    await t.api('DELETE', `/api/v1/browser-sandbox/session/${created.sessionId}`);
  });
});
