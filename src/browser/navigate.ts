import type { Page, Response } from 'playwright-core';
import {
  BlockedDestinationError,
  checkUrl,
  type EgressLane,
  type NetworkPolicy,
} from '../acquire/index.ts';
import { DownloadError, NavigationError, shortMessage } from './errors.ts';

export interface Guard {
  policy: NetworkPolicy;
  /** The page's context's own lane through the egress proxy: its refusals are this page's alone. */
  proxy: Pick<EgressLane, 'refusals'>;
}

/** The proxy's reason for refusing `url`'s host, if it refused it. */
function refusalFor(proxy: Guard['proxy'], url: string): string | undefined {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return proxy.refusals().findLast((m) => m.includes(host));
}

/** Turns what a navigation produced into a status, or the error that explains it. */
async function outcome(res: Response | null, guard: Guard): Promise<number> {
  if (res?.status() === 403 && res.headers()['x-webdata-blocked']) {
    throw new BlockedDestinationError(
      (await res.text().catch(() => '')) ||
        refusalFor(guard.proxy, res.url()) ||
        `refused to fetch ${res.url()}`,
    );
  }
  return res?.status() ?? 200;
}

function failed(err: unknown, url: string, guard: Guard, timeoutMs: number): Error {
  const refusal = refusalFor(guard.proxy, url);
  if (refusal) return new BlockedDestinationError(refusal);
  // Playwright's words when the response is a file (an attachment, a type Chromium cannot show).
  if (err instanceof Error && /download is starting/i.test(err.message))
    return new DownloadError(url);
  if (err instanceof Error && err.name === 'TimeoutError')
    return new NavigationError(`navigation to ${url} timed out after ${timeoutMs} ms`, true);
  return new NavigationError(`navigation to ${url} failed: ${shortMessage(err)}`);
}

/**
 * Opens `url` after checking it against the SSRF policy (the egress proxy checks every request
 * again, redirects and subresources included) and returns the document's HTTP status. `until`
 * `commit` hands over as soon as the document starts arriving, for a caller that waits for the
 * content itself (settledContent) rather than for a stylesheet or script that never loads.
 */
export async function openUrl(
  page: Page,
  url: string,
  guard: Guard,
  timeoutMs: number,
  until: 'load' | 'commit' = 'load',
): Promise<number> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new NavigationError(`"${url}" is not an absolute URL`);
  }
  checkUrl(parsed, guard.policy);
  let res: Response | null;
  try {
    res = await page.goto(parsed.href, { waitUntil: until, timeout: timeoutMs });
  } catch (err) {
    // A page whose own script navigates before its first load ends (a JavaScript gate reloading
    // itself) interrupts the goto; that is the page working, and the next document is the page.
    if (!(err instanceof Error && /interrupted by another navigation/i.test(err.message)))
      throw failed(err, parsed.href, guard, timeoutMs);
    if (until === 'load') {
      await page.waitForLoadState('load', { timeout: timeoutMs }).catch((again: unknown) => {
        throw failed(again, parsed.href, guard, timeoutMs);
      });
    }
    res = null;
  }
  return outcome(res, guard);
}

/** Goes back one entry in the page's history. */
export async function goBack(page: Page, guard: Guard, timeoutMs: number): Promise<number> {
  const before = page.url();
  let res: Response | null;
  try {
    res = await page.goBack({ waitUntil: 'load', timeout: timeoutMs });
  } catch (err) {
    throw failed(err, page.url(), guard, timeoutMs);
  }
  if (!res && page.url() === before) throw new NavigationError('there is no page to go back to');
  return outcome(res, guard);
}

/** Loads `html` as the page's document; its subresources still go through the egress proxy. */
export async function setHtml(page: Page, html: string, timeoutMs: number): Promise<void> {
  try {
    await page.setContent(html, { waitUntil: 'load', timeout: timeoutMs });
  } catch (err) {
    if (err instanceof Error && err.name === 'TimeoutError')
      throw new NavigationError(`loading the HTML timed out after ${timeoutMs} ms`, true);
    throw new NavigationError(`loading the HTML failed: ${shortMessage(err)}`);
  }
}
