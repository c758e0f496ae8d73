import { setTimeout as sleep } from 'node:timers/promises';
import { pngSize } from '../artifacts/index.ts';
import { microsToUsd, PRICES_MICROS } from '../billing/index.ts';
import { ACTION_TIMEOUT_MS, BrowserBusyError, callerText } from '../browser/index.ts';
import { type Action, SCREENSHOT_VIEWPORT, type ScreenshotResult } from '../contract/index.ts';
import { browse, type Opened } from '../page/index.ts';
import type { OpContext } from './context.ts';
import { type ProxyRequest, proxyRoute } from './proxy.ts';

/** What a picture of a page shows: the whole page, the viewport or one element, after an extra wait. */
export interface ShotOptions {
  fullPage?: boolean;
  selector?: string;
  width?: number;
  height?: number;
  /** Extra wait in ms after the page (and its actions) settled. */
  waitFor?: number;
}

export interface ScreenshotInput extends ShotOptions {
  url: string;
  actions?: Action[];
  /** Geo-targeted: the page's requests leave through that country's proxy. */
  proxy?: ProxyRequest;
}

export function shotViewport(shot: ShotOptions): { width: number; height: number } {
  return {
    width: shot.width ?? SCREENSHOT_VIEWPORT.width.default,
    height: shot.height ?? SCREENSHOT_VIEWPORT.height.default,
  };
}

/** A PNG of a settled page, as `shot` asks. Throws, with a message for the caller, when it cannot. */
export async function takeShot(
  { page, statusCode }: Opened,
  shot: ShotOptions,
  signal: AbortSignal,
): Promise<Buffer> {
  if (statusCode() >= 400) throw new Error(`the page answered HTTP ${statusCode()}`);
  // The wait ends with the request: a client that left should not hold a page for 30 s.
  if (shot.waitFor) await sleep(shot.waitFor, undefined, { signal });
  if (!shot.selector) return page.screenshot({ type: 'png', fullPage: shot.fullPage ?? true });
  const element = page.locator(shot.selector).first();
  // The page has settled and its actions ran (a waitForSelector among them if the caller
  // needed one): an element that is not there now is not coming.
  if ((await element.count()) === 0)
    throw new Error(`selector "${shot.selector}" matched no element`);
  try {
    await element.waitFor({ state: 'visible', timeout: ACTION_TIMEOUT_MS });
  } catch {
    throw new Error(
      `selector "${shot.selector}" matched no visible element within ${ACTION_TIMEOUT_MS} ms`,
    );
  }
  return element.screenshot({ type: 'png' });
}

/** A PNG stored under a public URL and charged as a screenshot. */
export async function storedShot(
  png: Buffer,
  sourceUrl: string,
  ctx: OpContext,
): Promise<ScreenshotResult> {
  const { width, height } = pngSize(png);
  const stored = await ctx.services.artifacts.put(png, {
    fileName: 'screenshot.png',
    contentType: 'image/png',
  });
  const cost = ctx.meter.charge('screenshot', 1, PRICES_MICROS.screenshot);
  return {
    success: true,
    url: stored.url,
    sourceUrl,
    width,
    height,
    cost: microsToUsd(cost),
    timestamp: new Date().toISOString(),
  };
}

/** A screenshot that was not taken, at no cost. */
export function failedShot(sourceUrl: string, err: unknown): ScreenshotResult {
  return {
    success: false,
    sourceUrl,
    cost: 0,
    error: callerText(err),
    timestamp: new Date().toISOString(),
  };
}

/** Captures the page (whole, viewport or one element) as a PNG stored under a public URL. */
export async function screenshot(
  input: ScreenshotInput,
  ctx: OpContext,
): Promise<ScreenshotResult> {
  try {
    const { value: png } = await browse(
      {
        url: input.url,
        actions: input.actions,
        viewport: shotViewport(input),
        proxy: proxyRoute(ctx, input.proxy),
      },
      ctx,
      (opened) => takeShot(opened, input, ctx.signal),
    );
    return await storedShot(png, input.url, ctx);
  } catch (err) {
    if (ctx.signal.aborted || err instanceof BrowserBusyError) throw err;
    return failedShot(input.url, err);
  }
}
