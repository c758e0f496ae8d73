import { openUrl, type BrowserEngine } from '../browser/index.ts';
import { BlockedPageError, settledContent, trackDocument } from './browse.ts';

export interface RenderedPage {
  url: string;
  statusCode: number;
  html: string;
}

/** How long a results page may keep loading after `load` (a JavaScript gate reloading itself). */
const QUIET_WAIT_MS = 5_000;

/**
 * Renders a URL in browser-stealth and returns its settled HTML: what a search engine serves a
 * real browser after its JavaScript gate has run. Used as the second try of SERP adapters.
 */
export function stealthPageFetcher(browser: BrowserEngine): (url: string, signal: AbortSignal) => Promise<RenderedPage> {
  return (url, signal) =>
    browser.run(
      'browser-stealth',
      async (page, env) => {
        const doc = trackDocument(page, env);
        await openUrl(page, url, env.guard, env.navigationTimeoutMs);
        await page.waitForLoadState('networkidle', { timeout: QUIET_WAIT_MS }).catch(() => undefined);
        // A page that is still a captcha or gate is returned as it is: the engine's adapter knows
        // its own refusal pages and says precisely what the engine did.
        const html = await settledContent(page, doc).catch(async (err: unknown) => {
          if (err instanceof BlockedPageError) return page.content();
          throw err;
        });
        return { url: page.url(), statusCode: doc.statusCode(), html };
      },
      { signal },
    );
}
