import { setTimeout as sleep } from 'node:timers/promises';
import type { Page } from 'playwright-core';
import { type BrowserEngine, openUrl } from '../browser/index.ts';
import { BlockedPageError, PageNotReadyError, settledContent, trackDocument } from './settle.ts';

/** How long a results page may keep navigating and loading after the first document (a JavaScript gate reloading itself). */
const QUIET_WAIT_MS = 8_000;
/** The main frame counts as arrived once it has not navigated for this long. */
const QUIET_AFTER_NAVIGATION_MS = 750;

/**
 * Waits until the main frame stops navigating (a gate's script may reload the page, even before
 * the first document finished loading) and the last document has loaded and gone quiet.
 */
async function arrived(page: Page, deadline: number): Promise<void> {
  let lastNavigation = Date.now();
  const onNavigated = (frame: unknown) => {
    if (frame === page.mainFrame()) lastNavigation = Date.now();
  };
  page.on('framenavigated', onNavigated);
  try {
    while (Date.now() < deadline && Date.now() - lastNavigation < QUIET_AFTER_NAVIGATION_MS)
      await sleep(100);
    await page
      .waitForLoadState('load', { timeout: Math.max(1, deadline - Date.now()) })
      .catch(() => undefined);
    await page
      .waitForLoadState('networkidle', { timeout: Math.max(1, deadline - Date.now()) })
      .catch(() => undefined);
  } finally {
    page.off('framenavigated', onNavigated);
  }
}

/**
 * The browser-page key of search engines' second tries: the fetcher is not told whose search it
 * runs, so they share one key's cap of the stealth pool.
 */
const SERP_KEY = 'search-engines';

/**
 * Renders a URL in browser-stealth and returns its settled HTML: what a search engine serves a
 * real browser after its JavaScript gate has run. Used as the second try of SERP adapters.
 */
export function stealthSerpFetcher(browser: BrowserEngine) {
  return (url: string, signal: AbortSignal) =>
    browser.run(
      'browser-stealth',
      async (page, env) => {
        const doc = trackDocument(page, env);
        const deadline = Date.now() + env.navigationTimeoutMs + QUIET_WAIT_MS;
        await openUrl(page, url, env.guard, env.navigationTimeoutMs);
        await arrived(page, deadline);
        // A page that is still a captcha or gate is returned as it is: the engine's adapter knows
        // its own refusal pages and says precisely what the engine did.
        const html = await settledContent(page, {
          doc,
          deadline: Date.now() + QUIET_WAIT_MS,
        }).catch(async (err: unknown) => {
          if (err instanceof BlockedPageError || err instanceof PageNotReadyError)
            return page.content();
          throw err;
        });
        return { url: page.url(), statusCode: doc.statusCode(), html };
      },
      { key: SERP_KEY, signal },
    );
}
