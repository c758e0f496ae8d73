import { setTimeout as sleep } from 'node:timers/promises';
import { pngSize } from '../artifacts/index.ts';
import { microsToUsd, PRICES_MICROS } from '../billing/index.ts';
import { ACTION_TIMEOUT_MS, BrowserBusyError, callerText } from '../browser/index.ts';
import { type Action, SCREENSHOT_VIEWPORT, type ScreenshotResult } from '../contract/index.ts';
import { browse } from '../page/index.ts';
import type { OpContext } from './context.ts';
import { type ProxyRequest, proxyRoute } from './proxy.ts';

export interface ScreenshotInput {
  url: string;
  fullPage?: boolean;
  selector?: string;
  width?: number;
  height?: number;
  /** Extra wait in ms after the page (and its actions) settled. */
  waitFor?: number;
  actions?: Action[];
  /** Geo-targeted: the page's requests leave through that country's proxy. */
  proxy?: ProxyRequest;
}

/** Captures the page (whole, viewport or one element) as a PNG stored under a public URL. */
export async function screenshot(
  input: ScreenshotInput,
  ctx: OpContext,
): Promise<ScreenshotResult> {
  const viewport = {
    width: input.width ?? SCREENSHOT_VIEWPORT.width.default,
    height: input.height ?? SCREENSHOT_VIEWPORT.height.default,
  };
  try {
    const { value: png } = await browse(
      { url: input.url, actions: input.actions, viewport, proxy: proxyRoute(ctx, input.proxy) },
      ctx,
      async ({ page, statusCode }) => {
        if (statusCode() >= 400) throw new Error(`the page answered HTTP ${statusCode()}`);
        // The wait ends with the request: a client that left should not hold a page for 30 s.
        if (input.waitFor) await sleep(input.waitFor, undefined, { signal: ctx.signal });
        if (!input.selector)
          return page.screenshot({ type: 'png', fullPage: input.fullPage ?? true });
        const element = page.locator(input.selector).first();
        // The page has settled and its actions ran (a waitForSelector among them if the caller
        // needed one): an element that is not there now is not coming.
        if ((await element.count()) === 0)
          throw new Error(`selector "${input.selector}" matched no element`);
        try {
          await element.waitFor({ state: 'visible', timeout: ACTION_TIMEOUT_MS });
        } catch {
          throw new Error(
            `selector "${input.selector}" matched no visible element within ${ACTION_TIMEOUT_MS} ms`,
          );
        }
        return element.screenshot({ type: 'png' });
      },
    );
    const { width, height } = pngSize(png);
    const stored = await ctx.services.artifacts.put(png, {
      fileName: 'screenshot.png',
      contentType: 'image/png',
    });
    const cost = ctx.meter.charge('screenshot', 1, PRICES_MICROS.screenshot);
    return {
      success: true,
      url: stored.url,
      sourceUrl: input.url,
      width,
      height,
      cost: microsToUsd(cost),
      timestamp: new Date().toISOString(),
    };
  } catch (err) {
    if (ctx.signal.aborted || err instanceof BrowserBusyError) throw err;
    return {
      success: false,
      sourceUrl: input.url,
      cost: 0,
      error: callerText(err),
      timestamp: new Date().toISOString(),
    };
  }
}
