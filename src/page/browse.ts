import type { Page } from 'playwright-core';
import type { ProxyRoute } from '../acquire/index.ts';
import {
  type BrowserMethod,
  DownloadError,
  type DownloadedFile,
  openUrl,
  type PageEnv,
  readDownload,
  runAction,
} from '../browser/index.ts';
import { type Action, BROWSER_RUNGS } from '../contract/index.ts';
import { countBlock } from '../metrics/index.ts';
import type { PageContext } from './context.ts';
import {
  BlockedPageError,
  type ContentJudge,
  type DocumentState,
  settledContent,
  trackDocument,
} from './settle.ts';

/** A next method is not started with less than this left of the budget: it could not finish. */
const MIN_TRY_MS = 2_000;

export interface BrowseRequest {
  url: string;
  actions?: Action[];
  viewport?: { width: number; height: number };
  /** Methods to try in order; the next one is tried only when the page is a challenge or block. */
  methods?: readonly BrowserMethod[];
  /** Upstream (geo) proxy the page's requests leave through. */
  proxy?: ProxyRoute;
  /** Epoch ms the whole call must end by; every navigation and wait draws from it. Default: now + the page budget. */
  deadline?: number;
  /** Judges the main content while the page settles (see settledContent). */
  judge?: ContentJudge;
  /** Scroll through the settled page once so content loaded on view is there too. */
  revealLazy?: boolean;
  /**
   * Only the content matters (not how the page looks): hand over as soon as the document starts
   * arriving and let the settle wait for content, never for images or a stylesheet that hangs.
   */
  contentOnly?: boolean;
  /** Methods already tried before the browser (http), named in the final error. */
  triedBefore?: string[];
}

export interface Opened extends DocumentState {
  page: Page;
  env: PageEnv;
  /** The page's HTML once it settled, before any action ran. */
  html: string;
  /** When the call's budget ends, for waits the capture makes. */
  deadline: number;
}

/**
 * Opens a URL in the browser, lets it settle, runs the actions, then hands the page to
 * `capture`. A challenge or block page (at load, or thrown by `capture`) moves to the next
 * method while the budget allows; after the last one it fails with a BlockedPageError naming the
 * methods tried. A URL that answers with a file is no page to settle or act on: it fails with a
 * DownloadError, or, given `download`, the file is read and handed to it instead.
 */
export async function browse<T>(
  req: BrowseRequest,
  ctx: PageContext,
  capture: (opened: Opened) => Promise<T>,
  download?: (file: DownloadedFile, method: BrowserMethod) => T,
): Promise<{ value: T; method: BrowserMethod }> {
  const methods = req.methods ?? BROWSER_RUNGS;
  const deadline = req.deadline ?? Date.now() + ctx.services.config.pageBudgetMs;
  const tried: string[] = [...(req.triedBefore ?? [])];
  let last: BlockedPageError | undefined;
  for (const method of methods) {
    if (last && deadline - Date.now() < MIN_TRY_MS) break;
    tried.push(method);
    try {
      const value = await ctx.services.browser.run(
        method,
        async (page, env) => {
          const doc = trackDocument(page, env);
          const remaining = Math.max(1, deadline - Date.now());
          try {
            await openUrl(
              page,
              req.url,
              env.guard,
              Math.min(env.navigationTimeoutMs, remaining),
              req.contentOnly ? 'commit' : 'load',
            );
          } catch (err) {
            if (!(err instanceof DownloadError && download)) throw err;
            const file = await readDownload(page, deadline, ctx.services.config.maxPageBytes);
            return download(file, method);
          }
          const html = await settledContent(page, {
            doc,
            deadline,
            judge: req.judge,
            revealLazy: req.revealLazy,
            justOpened: true,
          });
          for (const [i, action] of (req.actions ?? []).entries())
            await runAction(page, action, i, env);
          return capture({ page, env, html, deadline, ...doc });
        },
        { key: ctx.userId, signal: ctx.signal, viewport: req.viewport, proxy: req.proxy },
      );
      return { value, method };
    } catch (err) {
      if (!(err instanceof BlockedPageError)) throw err;
      countBlock(method, err.verdict);
      ctx.log.debug(
        { url: req.url, method, reason: err.verdict.reason },
        'page blocked; escalating',
      );
      last = err;
    }
  }
  throw new BlockedPageError(
    last!.verdict,
    last!.statusCode,
    `${last!.message}; still blocked after trying ${tried.join(', ')}`,
  );
}
