import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserEngine, openUrl } from '../../src/browser/index.ts';
import { loadConfig } from '../../src/config.ts';
import { type FixtureSite, startFixtureSite } from '../fixtures/site/server.ts';
import { leftoverBrowserProcesses } from '../helpers/browsers.ts';

let site: FixtureSite;
let engine: BrowserEngine;

beforeAll(async () => {
  site = await startFixtureSite();
  const config = loadConfig({ WEBDATA_BROWSER_POOL_SIZE: '1', WEBDATA_BROWSER_RECYCLE_PAGES: '2' });
  engine = await BrowserEngine.start({
    ...config.browser,
    chromium: config.chromium,
    firefox: config.firefox,
    policy: { allowPrivate: true },
    navigationTimeoutMs: 5000,
  });
});
afterAll(async () => {
  await engine?.close();
  await site?.close();
  expect(leftoverBrowserProcesses()).toEqual([]);
});

describe('BrowserEngine pool', () => {
  it('gives every run a fresh context and replaces a browser after its page quota', async () => {
    const visit = () =>
      engine.run(
        'browser',
        async (page, env) => {
          await openUrl(page, `${site.origin}/browser/second`, env.guard, env.navigationTimeoutMs);
          const seen = await page.evaluate(() => {
            const before = localStorage.getItem('visited');
            localStorage.setItem('visited', 'yes');
            document.cookie = 'seen=1; path=/';
            return before;
          });
          return { seen, pid: engine.pids('browser')[0]?.pid };
        },
        { key: 'u1' },
      );
    const first = await visit();
    const second = await visit();
    expect(first.seen).toBeNull();
    expect(second.seen).toBeNull();
    expect(second.pid).toBe(first.pid);
    const third = await visit();
    expect(third.seen).toBeNull();
    expect(engine.stats().browser.launches).toBe(2);
    expect(engine.stats().browser.crashes).toBe(0);
    expect(third.pid).not.toBe(first.pid);
    // The retired browser is closed once its last page is done.
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    await expect.poll(() => alive(first.pid!), { timeout: 5000 }).toBe(false);
  });
});
