import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BrowserEngine } from '../../src/browser/index.ts';
import { loadConfig } from '../../src/config.ts';
import { launchChromium } from '../../src/sessions/chromium.ts';
import { launchFirefox } from '../../src/sessions/firefox.ts';
import { type RecordingProxy, startRecordingProxy } from '../fixtures/recording-proxy.ts';

// Long enough for Chromium's start-up calls (updates, time, accounts, optimisation hints), which
// a browser without the quiet flags makes within a few seconds.
const IDLE_MS = 8_000;
const PAGE_HOST = 'asked-for.test';

/** One recording proxy per kind of browser, so a stray request names its browser. */
const proxies: Record<string, RecordingProxy> = {};
let root: string;

beforeAll(async () => {
  for (const kind of ['session-headless', 'session-firefox', 'pools'])
    proxies[kind] = await startRecordingProxy();
  root = await mkdtemp(join(tmpdir(), 'wd-quiet-'));
});

afterAll(async () => {
  await Promise.all(Object.values(proxies).map((p) => p.close()));
  await rm(root, { recursive: true, force: true });
});

it('headless pool and session browsers, Chromium and Firefox, ask the egress proxy for nothing but the pages they are sent to', async () => {
  const { browser, chromium, firefox } = loadConfig({});
  // Only the headless shell is held to this: Debian's full Chromium (visible sessions, the stealth
  // pool) still asks update.googleapis.com and accounts.google.com despite every flag and policy here.
  const session = { headless: true, width: 1280, height: 720, root, env: {} };
  const sessionHeadless = await launchChromium({
    ...session,
    executable: chromium.headless,
    proxyUrl: proxies['session-headless']!.url,
  });
  const sessionFirefox = await launchFirefox({
    ...session,
    executable: firefox.firefox,
    proxyUrl: proxies['session-firefox']!.url,
  });
  const pools = proxies.pools!;
  const engine = await BrowserEngine.start({
    ...browser,
    chromium,
    firefox,
    policy: { allowPrivate: false },
    proxy: {
      url: pools.url,
      port: pools.port,
      routeUrl: () => undefined,
      refusals: () => [],
      openLane: async () => ({ url: pools.url, refusals: () => [], close: async () => undefined }),
      close: async () => undefined,
    },
    navigationTimeoutMs: 15_000,
  });
  try {
    for (const running of [sessionHeadless]) {
      const { targetId } = await running.control.send<{ targetId: string }>('Target.createTarget', {
        url: `http://${PAGE_HOST}/session`,
      });
      expect(targetId).toBeTruthy();
    }
    const [tab] = (
      await sessionFirefox.control.send<{ contexts: Array<{ context: string }> }>(
        'browsingContext.getTree',
        { maxDepth: 0 },
      )
    ).contexts;
    await sessionFirefox.control.send('browsingContext.navigate', {
      context: tab!.context,
      url: `http://${PAGE_HOST}/session`,
      wait: 'complete',
    });
    for (const method of ['browser', 'browser-firefox'] as const) {
      const title = await engine.run(
        method,
        async (page) => {
          await page.goto(`http://${PAGE_HOST}/${method}`);
          return page.title();
        },
        { key: 'u1' },
      );
      expect(title).toBe('Recorded');
    }
    await sleep(IDLE_MS);
    for (const [kind, proxy] of Object.entries(proxies)) {
      const hosts = proxy.hosts();
      expect(hosts, kind).toContain(PAGE_HOST);
      expect(
        hosts.filter((h) => h !== PAGE_HOST),
        kind,
      ).toEqual([]);
    }
  } finally {
    await Promise.allSettled([sessionHeadless.dispose(), sessionFirefox.dispose(), engine.close()]);
  }
}, 60_000);
