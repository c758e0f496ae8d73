import type { Page } from 'playwright-core';
import { awaitingRender, BlockedDestinationError, detectBlock, type BlockVerdict, type ProxyRoute } from '../acquire/index.ts';
import { openUrl, runAction, type Action, type BrowserMethod, type PageEnv } from '../browser/index.ts';
import { countBlock } from '../metrics/index.ts';
import type { OpContext } from './context.ts';

/** How long a challenge page may take to clear itself, or a script app to render, after load. */
const SETTLE_MS = 8_000;
const POLL_MS = 150;

export const BROWSER_METHODS: BrowserMethod[] = ['browser', 'browser-stealth'];

/** The page is a challenge or block page; escalation moves to the next method, or the call fails. */
export class BlockedPageError extends Error {
  readonly verdict: BlockVerdict;
  /** HTTP status of the blocked document. */
  readonly statusCode: number;

  constructor(verdict: BlockVerdict, statusCode: number, message?: string) {
    super(message ?? `the page is ${verdict.kind === 'challenge' ? 'an anti-bot challenge' : 'blocked by anti-bot protection'} (${verdict.reason})`);
    this.verdict = verdict;
    this.statusCode = statusCode;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The page's HTML, or undefined while it is between documents (a challenge reloading itself). */
async function contentNow(page: Page): Promise<string | undefined> {
  try {
    return await page.content();
  } catch (err) {
    if (page.isClosed() || page.context().browser()?.isConnected() === false) throw err;
    return undefined;
  }
}

/** What is known of the page's current document (it changes when a challenge reloads). */
export interface DocumentState {
  statusCode(): number;
  /** Why the egress proxy refused the current document, when it did. */
  refusal(): string | undefined;
}

const PLAIN_DOCUMENT: DocumentState = { statusCode: () => 200, refusal: () => undefined };

/** Follows the main frame's documents: their HTTP status, and whether the egress proxy refused one. */
export function trackDocument(page: Page, env: PageEnv): DocumentState {
  let status = 0;
  let refused: string | undefined;
  page.on('response', (r) => {
    if (!r.request().isNavigationRequest() || r.frame() !== page.mainFrame()) return;
    status = r.status();
    // A page's own script or a click can lead the page somewhere the proxy refuses.
    const host = new URL(r.url()).hostname.replace(/^\[|\]$/g, '');
    refused = r.headers()['x-webdata-blocked'] ? (env.guard.proxy.refusals().findLast((m) => m.includes(host)) ?? `refused to fetch ${r.url()}`) : undefined;
  });
  return { statusCode: () => status, refusal: () => refused };
}

/**
 * Waits while the page is a JavaScript challenge or an app that has not rendered yet, then
 * returns its HTML; throws BlockedPageError if it is (still) a challenge or block page, and
 * BlockedDestinationError if the page navigated somewhere the SSRF guard refused.
 */
export async function settledContent(page: Page, doc: DocumentState = PLAIN_DOCUMENT): Promise<string> {
  const statusCode = doc.statusCode;
  const deadline = Date.now() + SETTLE_MS;
  for (;;) {
    const html = await contentNow(page);
    const refusal = doc.refusal();
    if (refusal) throw new BlockedDestinationError(refusal);
    if (html !== undefined) {
      const verdict = detectBlock(html, statusCode());
      if (verdict?.kind === 'blocked') throw new BlockedPageError(verdict, statusCode());
      const waiting = verdict !== undefined || awaitingRender(html);
      if (!waiting || Date.now() >= deadline) {
        if (verdict) throw new BlockedPageError(verdict, statusCode());
        return html;
      }
    }
    if (Date.now() >= deadline) throw new Error('the page did not settle');
    await sleep(POLL_MS);
  }
}

export interface BrowseRequest {
  url: string;
  actions?: Action[];
  viewport?: { width: number; height: number };
  /** Methods to try in order; the next one is tried only when the page is a challenge or block. */
  methods?: BrowserMethod[];
  /** Upstream (geo) proxy the page's requests leave through. */
  proxy?: ProxyRoute;
}

export interface Opened extends DocumentState {
  page: Page;
  env: PageEnv;
  /** The page's HTML once it settled, before any action ran. */
  html: string;
}

/**
 * Opens a URL in the browser, lets it settle, runs the actions, then hands the page to
 * `capture`. A challenge or block page (at load, or thrown by `capture`) moves to the next
 * method; after the last one it fails with a BlockedPageError naming the methods tried.
 */
export async function browse<T>(req: BrowseRequest, ctx: OpContext, capture: (opened: Opened) => Promise<T>): Promise<{ value: T; method: BrowserMethod }> {
  const methods = req.methods ?? BROWSER_METHODS;
  let last: BlockedPageError | undefined;
  for (const method of methods) {
    try {
      const value = await ctx.services.browser.run(
        method,
        async (page, env) => {
          const doc = trackDocument(page, env);
          await openUrl(page, req.url, env.guard, env.navigationTimeoutMs);
          const html = await settledContent(page, doc);
          for (const [i, action] of (req.actions ?? []).entries()) await runAction(page, action, i, env);
          return capture({ page, env, html, ...doc });
        },
        { signal: ctx.signal, viewport: req.viewport, proxy: req.proxy },
      );
      return { value, method };
    } catch (err) {
      if (!(err instanceof BlockedPageError)) throw err;
      countBlock(method, err.verdict);
      ctx.log.debug({ url: req.url, method, reason: err.verdict.reason }, 'page blocked; escalating');
      last = err;
    }
  }
  throw new BlockedPageError(last!.verdict, last!.statusCode, `${last!.message}; still blocked after trying ${methods.join(', ')}`);
}
