import type { Page, Request } from 'playwright-core';
import { BlockedDestinationError } from '../acquire/index.ts';
import { NavigationError, type PageEnv } from '../browser/index.ts';
import type { ContentVerdict } from './main-content-signals.ts';
import { awaitingRender, type BlockVerdict, detectBlock } from './page-signals.ts';

/** The page is a challenge or block page; escalation moves to the next method, or the call fails. */
export class BlockedPageError extends Error {
  readonly verdict: BlockVerdict;
  /** HTTP status of the blocked document. */
  readonly statusCode: number;

  constructor(verdict: BlockVerdict, statusCode: number, message?: string) {
    super(
      message ??
        `the page is ${verdict.kind === 'challenge' ? 'an anti-bot challenge' : 'blocked by anti-bot protection'} (${verdict.reason})`,
    );
    this.verdict = verdict;
    this.statusCode = statusCode;
  }
}

/** The page still showed a placeholder instead of its content when the time ran out. */
export class PageNotReadyError extends Error {}

/** What is known of the page's current document (it changes when a challenge reloads). */
export interface DocumentState {
  statusCode(): number;
  /** The current document's Content-Type as served ('' before one arrived). */
  contentType(): string;
  /** Why the egress proxy refused the current document, when it did. */
  refusal(): string | undefined;
  /** Why the current document stopped loading part way (its body cut at the byte cap, a reset). */
  loadFailure(): string | undefined;
  /**
   * Requests of the page (every kind, every frame) not finished yet, counted from before the
   * navigation; undefined when they were not followed from the start.
   */
  requestsInFlight(): number | undefined;
  /** Sleeps `ms`, ended early by the page's load event or its last request ending. */
  pause(ms: number): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const PLAIN_DOCUMENT: DocumentState = {
  statusCode: () => 200,
  contentType: () => 'text/html',
  refusal: () => undefined,
  loadFailure: () => undefined,
  requestsInFlight: () => undefined,
  pause: sleep,
};

/** Follows the main frame's documents: their HTTP status, and whether the egress proxy refused one. */
export function trackDocument(page: Page, env: PageEnv): DocumentState {
  let status = 0;
  let type = '';
  let refused: string | undefined;
  let loadFailure: string | undefined;
  const isDocument = (r: Request) => r.isNavigationRequest() && r.frame() === page.mainFrame();
  const inFlight = new Set<Request>();
  let wake: (() => void) | undefined;
  const ended = (r: Request) => {
    inFlight.delete(r);
    if (inFlight.size === 0) wake?.();
  };
  page.on('request', (r) => inFlight.add(r));
  page.on('requestfinished', ended);
  page.on('load', () => wake?.());
  // A document handed over at commit can still fail while its body arrives: what was shown
  // until then is a truncated page, never the page.
  page.on('requestfailed', (r) => {
    ended(r);
    const error = r.failure()?.errorText ?? 'failed';
    // Aborted is the page moving on to another document (a gate reloading itself), not a failure.
    if (!isDocument(r) || /ERR_ABORTED/.test(error)) return;
    const host = new URL(r.url()).hostname.replace(/^\[|\]$/g, '');
    loadFailure =
      env.guard.proxy.refusals().findLast((m) => m.includes(host)) ??
      `loading ${r.url()} failed (${error})`;
  });
  page.on('response', (r) => {
    if (!isDocument(r.request())) return;
    loadFailure = undefined;
    status = r.status();
    type = r.headers()['content-type'] ?? '';
    // A page's own script or a click can lead the page somewhere the proxy refuses.
    const host = new URL(r.url()).hostname.replace(/^\[|\]$/g, '');
    refused = r.headers()['x-webdata-blocked']
      ? (env.guard.proxy.refusals().findLast((m) => m.includes(host)) ??
        `refused to fetch ${r.url()}`)
      : undefined;
  });
  return {
    statusCode: () => status,
    contentType: () => type,
    refusal: () => refused,
    loadFailure: () => loadFailure,
    requestsInFlight: () => inFlight.size,
    pause: (ms) =>
      new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          wake = undefined;
          resolve();
        };
        const timer = setTimeout(done, ms);
        wake = done;
      }),
  };
}

/** Judges the page's main content (the caller converts it); undefined when it is the page. */
export type ContentJudge = (html: string, url: string) => Promise<ContentVerdict | undefined>;

export interface SettleOptions {
  doc?: DocumentState;
  /** Epoch ms by which the page must be settled; the request's budget. */
  deadline: number;
  /** Without one, only an empty script app root counts as not rendered yet. */
  judge?: ContentJudge;
  /** Scroll through the page once its DOM first goes quiet, so content loaded on view loads too. */
  revealLazy?: boolean;
  /**
   * The page was just opened and `doc` followed it from the navigation: once it has loaded with
   * no request in flight, content judged to be the page is taken without waiting for a quiet DOM.
   * Not after actions, whose effects (a click's timer) the network does not show.
   */
  justOpened?: boolean;
}

/** The DOM counts as quiet once it has not changed for this long. */
const QUIET_MS = 400;
/**
 * Thin content is accepted once the DOM has been quiet this long with no script request started
 * recently in flight: a page fetching its content 1-3 s after load is usually still fetching.
 */
const LONG_QUIET_MS = 2_500;
const POLL_MS = 120;
/**
 * A page whose DOM never goes quiet (a ticker, a carousel, a clock) is judged anyway once it has
 * been busy this long, and again every BUSY_RECHECK_MS.
 */
const BUSY_MS = 3_000;
const BUSY_RECHECK_MS = 1_000;
/** Most viewport heights scrolled to reveal lazy content. */
const REVEAL_STEPS = 12;

/** The page's HTML, or undefined while it is between documents (a challenge reloading itself). */
async function contentNow(page: Page): Promise<string | undefined> {
  try {
    return await page.content();
  } catch (err) {
    if (page.isClosed() || page.context().browser()?.isConnected() === false) throw err;
    return undefined;
  }
}

/** What one look at the page gives (see domSignature). */
interface Look {
  signature: string;
  loaded: boolean;
  /** More of the page lies below the viewport. */
  below: boolean;
  html?: string;
}

/**
 * A cheap fingerprint of the DOM (any insertion, removal or text change moves it), whether the
 * document has loaded and goes on below the viewport, and, when `withHtml` and it has loaded,
 * the HTML as page.content() gives it: one round trip where the page is about to be taken.
 */
async function domSignature(page: Page, withHtml: boolean): Promise<Look | undefined> {
  try {
    return await page.evaluate((withHtml) => {
      const loaded = document.readyState === 'complete';
      const signature = `${document.getElementsByTagName('*').length}:${document.body?.textContent?.length ?? 0}:${location.href}`;
      const below = scrollY + innerHeight < (document.scrollingElement?.scrollHeight ?? 0);
      if (!withHtml || !loaded) return { signature, loaded, below };
      const doctype = document.doctype
        ? new XMLSerializer().serializeToString(document.doctype)
        : '';
      return {
        signature,
        loaded,
        below,
        html: doctype + (document.documentElement?.outerHTML ?? ''),
      };
    }, withHtml);
  } catch (err) {
    if (page.isClosed() || page.context().browser()?.isConnected() === false) throw err;
    return undefined;
  }
}

/** Script requests older than this no longer hold thin content back (long polls, streams). */
const RECENT_REQUEST_MS = 8_000;

/**
 * Script requests (fetch, XHR) started in the last RECENT_REQUEST_MS and not finished. Older
 * ones are ignored so long polling, event streams and beacons cannot hold a page forever.
 */
function recentScriptRequests(page: Page): { pending(): boolean; stop(): void } {
  const started = new Map<Request, number>();
  const onRequest = (r: Request) => {
    if (r.resourceType() === 'fetch' || r.resourceType() === 'xhr') started.set(r, Date.now());
  };
  const onDone = (r: Request) => started.delete(r);
  page.on('request', onRequest);
  page.on('requestfinished', onDone);
  page.on('requestfailed', onDone);
  return {
    pending: () => [...started.values()].some((at) => Date.now() - at < RECENT_REQUEST_MS),
    stop: () => {
      page.off('request', onRequest);
      page.off('requestfinished', onDone);
      page.off('requestfailed', onDone);
    },
  };
}

/**
 * Scrolls down a viewport at a time to the bottom (or REVEAL_STEPS) and stays there, so actions
 * that scroll further go on loading where the reveal stopped. Says whether the page moved.
 */
async function scrollThrough(page: Page): Promise<boolean> {
  let moved = false;
  try {
    for (let i = 0; i < REVEAL_STEPS; i++) {
      const more = await page.evaluate(() => {
        const before = scrollY;
        scrollBy(0, innerHeight);
        return scrollY > before;
      });
      if (!more) break;
      moved = true;
      await sleep(100);
    }
  } catch (err) {
    // The page navigating away mid-scroll is the page working; the settle loop follows it.
    if (page.isClosed() || page.context().browser()?.isConnected() === false) throw err;
    moved = true;
  }
  return moved;
}

/**
 * Waits until the page's main content is present and stable, then returns its HTML: the DOM
 * quiet for a short window (or, for a page `justOpened`, loaded with nothing in flight), not a
 * challenge, and (by `judge`) not a placeholder. Thin content is taken after a longer quiet; a
 * placeholder or challenge is waited on until the deadline. Never waits for the load event or
 * network idle, which pages with beacons or long polling never reach.
 * Throws BlockedPageError for a block page (or a challenge at the deadline), PageNotReadyError for
 * a placeholder at the deadline, BlockedDestinationError if the page went somewhere refused.
 */
export async function settledContent(page: Page, opts: SettleOptions): Promise<string> {
  const doc = opts.doc ?? PLAIN_DOCUMENT;
  const requests = recentScriptRequests(page);
  const judged = new Map<string, ContentVerdict | undefined>();
  const judge = async (signature: string, html: string) => {
    if (!judged.has(signature))
      judged.set(
        signature,
        opts.judge
          ? await opts.judge(html, page.url())
          : awaitingRender(html)
            ? { kind: 'thin', reason: 'the script app root is empty' }
            : undefined,
      );
    return judged.get(signature);
  };
  let last: string | undefined;
  let changedAt = Date.now();
  let busySince = Date.now();
  let checkedAt = 0;
  let scrolledAt = 0;
  let revealed = !opts.revealLazy;
  try {
    for (;;) {
      const refusal = doc.refusal();
      if (refusal) throw new BlockedDestinationError(refusal);
      const loadFailure = doc.loadFailure();
      if (loadFailure) throw new NavigationError(loadFailure);
      const now = Date.now();
      const late = now >= opts.deadline;
      // Loaded with nothing in flight, a frame's time after a scroll for what it set off to start:
      // only a timer could still bring content, and the quiet window would miss a late one too.
      // Checked this way once after a scroll, else at most once a quiet window, so a ticker is
      // not judged at every poll.
      const mayTake = () =>
        opts.justOpened === true &&
        (now - checkedAt >= QUIET_MS || scrolledAt > checkedAt) &&
        now - scrolledAt >= POLL_MS &&
        doc.requestsInFlight() === 0;
      let seen = await domSignature(page, mayTake());
      // The last request can end during the look: look again, with the HTML, rather than a poll later.
      if (seen?.loaded && seen.html === undefined && mayTake())
        seen = await domSignature(page, true);
      const signature = seen?.signature;
      if (signature === undefined || signature !== last) {
        last = signature;
        changedAt = now;
      }
      const quietFor = now - changedAt;
      const busyCheck =
        quietFor < QUIET_MS && now - busySince >= BUSY_MS && now - checkedAt >= BUSY_RECHECK_MS;
      const idle = seen?.loaded === true && mayTake();
      if (seen !== undefined && (quietFor >= QUIET_MS || late || busyCheck || idle)) {
        checkedAt = now;
        const html = seen.html ?? (await contentNow(page));
        if (html !== undefined) {
          const block = detectBlock(html, doc.statusCode());
          if (block?.kind === 'blocked' || (block && late))
            throw new BlockedPageError(block, doc.statusCode());
          if (!block) {
            if (!revealed && !late) {
              revealed = true;
              // Whatever a scroll set off must settle like the first render did.
              if (seen.below && (await scrollThrough(page))) {
                changedAt = busySince = scrolledAt = Date.now();
                last = undefined;
                continue;
              }
            }
            const content = await judge(seen.signature, html);
            if (
              !content ||
              (content.kind === 'thin' &&
                (late || (quietFor >= LONG_QUIET_MS && !requests.pending())))
            )
              return html;
            if (late)
              throw new PageNotReadyError(
                `${content.reason}; the page did not render its content in time`,
              );
          }
        }
      }
      if (late) throw new PageNotReadyError('the page was still loading when the time ran out');
      const wait = Math.min(POLL_MS, Math.max(1, opts.deadline - Date.now()));
      await (opts.justOpened ? doc.pause(wait) : sleep(wait));
    }
  } finally {
    requests.stop();
  }
}
