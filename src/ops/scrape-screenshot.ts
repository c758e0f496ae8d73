import type { FetchResult, ScreenshotResult } from '../contract/index.ts';
import type { OpContext } from './context.ts';
import { type ScrapeInput, scrape } from './scrape.ts';
import {
  failedShot,
  type ShotOptions,
  screenshot,
  shotViewport,
  storedShot,
  takeShot,
} from './screenshot.ts';

/**
 * A scrape and a screenshot of the same page from one browser load: the picture is taken on the
 * page the scrape settled (so the HTTP rung is skipped). Only a scrape served from the cache,
 * which loads nothing, is pictured by a load of its own. A page that did not load, or that is a
 * file, has no screenshot, and the screenshot's failure is reported without failing the scrape.
 */
export async function scrapeWithScreenshot(
  input: ScrapeInput,
  shot: ShotOptions,
  ctx: OpContext,
): Promise<{ result: FetchResult; shot: ScreenshotResult }> {
  let png: Buffer | undefined;
  let missed: unknown;
  const result = await scrape(input, ctx, undefined, {
    viewport: shotViewport(shot),
    run: async (opened) => {
      try {
        // The settle scrolled through the page to reveal lazy content; a picture of its own would
        // show the page from the top, as it opened (or where the caller's actions left it).
        if (!input.actions?.length) await opened.page.evaluate(() => scrollTo(0, 0));
        png = await takeShot(opened, shot, ctx.signal);
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        missed = err;
      }
    },
  });
  if (png) {
    try {
      return { result, shot: await storedShot(png, input.url, ctx) };
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      return { result, shot: failedShot(input.url, err) };
    }
  }
  if (missed !== undefined) return { result, shot: failedShot(input.url, missed) };
  if (result.cacheState === 'hit')
    return {
      result,
      shot: await screenshot(
        { url: input.url, ...shot, actions: input.actions, proxy: input.proxy },
        ctx,
      ),
    };
  const why = result.success ? 'the URL answered with a file, not a page' : result.error;
  return { result, shot: failedShot(input.url, new Error(why ?? 'the page did not load')) };
}
