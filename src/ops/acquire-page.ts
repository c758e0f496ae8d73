import { acquiredFromBrowser, acquiredFromHttp, judgeMainContent, type AcquiredPage, type AcquireMethod, type ContentVerdict, type ProxyRoute } from '../acquire/index.ts';
import { settledContent, type Action, type BrowserMethod } from '../browser/index.ts';
import { countBlock } from '../metrics/index.ts';
import { browse } from './browse.ts';
import type { OpContext } from './context.ts';
import type { PageConverter } from './page-result.ts';

export interface EngineFeatures {
  /** Runs the page's JavaScript. */
  javascript: boolean;
  /** Can run browser actions (click, type, scroll...). */
  actions: boolean;
  /** Passes checks that turn away automated browsers. */
  stealth: boolean;
}

/** The engines, cheapest first: a page moves up only when the rung below could not get it. */
export const ENGINE_LADDER: ReadonlyArray<{ method: AcquireMethod; features: EngineFeatures }> = [
  { method: 'http', features: { javascript: false, actions: false, stealth: false } },
  { method: 'browser', features: { javascript: true, actions: true, stealth: false } },
  { method: 'browser-stealth', features: { javascript: true, actions: true, stealth: true } },
];

export interface AcquireRequest {
  url: string;
  /** Browser actions run once the page settled; only engines with `actions` are tried. */
  actions: Action[];
  proxy?: ProxyRoute;
  /** Epoch ms the page must be acquired by. */
  deadline: number;
}

/**
 * Why an HTTP answer is not the page yet and a browser should try, or undefined when it is. An
 * HTML answer is read on a conversion worker from its bytes; the main content it converted to
 * judge the page is handed to the converter, for the result to reuse.
 */
async function escalationReason(page: AcquiredPage, ctx: OpContext, converter: PageConverter): Promise<string | undefined> {
  if (page.kind !== 'html' || page.text === undefined) return undefined;
  const reading = await ctx.services.content.readHttpAnswer({ bytes: page.body, contentType: page.contentType, url: page.url, statusCode: page.statusCode }, ctx.signal);
  if (reading.block) countBlock('http', reading.block);
  if (reading.main) converter.adopt(page.text, page.url, 'markdown', true, reading.main);
  return reading.escalate;
}

/** The main content of `html` judged as the result will see it: markdown of the main content. */
async function judgeContent(html: string, url: string, converter: PageConverter): Promise<ContentVerdict | undefined> {
  const main = await converter.convert(html, url, 'markdown', true);
  return judgeMainContent(main.content, html);
}

/**
 * Acquires a page by the ladder: over HTTP, then in the browser when the HTTP answer is a
 * challenge or its main content is a placeholder or thin, then stealthily when the browser is
 * blocked. Throws the last engine's error (BlockedPageError, PageNotReadyError, FetchFailure).
 */
export async function acquirePage(req: AcquireRequest, ctx: OpContext, converter: PageConverter): Promise<AcquiredPage> {
  const rungs = ENGINE_LADDER.filter((r) => req.actions.length === 0 || r.features.actions);
  const triedBefore: string[] = [];
  if (rungs[0]!.method === 'http') {
    triedBefore.push('http');
    const timeoutMs = Math.max(1, Math.min(ctx.services.config.fetchTimeoutMs, req.deadline - Date.now()));
    const res = await ctx.services.http.fetch(req.url, { signal: ctx.signal, proxy: req.proxy, timeoutMs });
    const page = acquiredFromHttp(res);
    const reason = await escalationReason(page, ctx, converter);
    if (!reason) return page;
    ctx.log.debug({ url: req.url, reason }, 'escalating to the browser');
  }
  const methods = rungs.filter((r) => r.features.javascript).map((r) => r.method as BrowserMethod);
  const judge = (html: string, url: string) => judgeContent(html, url, converter);
  const { value, method } = await browse({ url: req.url, actions: req.actions, proxy: req.proxy, methods, deadline: req.deadline, judge, revealLazy: true, contentOnly: true, triedBefore }, ctx, async (opened) => {
    const { page } = opened;
    // Actions can lead to a wall of their own (a form that answers with a captcha).
    const html = req.actions.length > 0 ? await settledContent(page, { doc: opened, deadline: opened.deadline, judge }) : opened.html;
    return { html, url: page.url(), statusCode: opened.statusCode() };
  });
  return acquiredFromBrowser(value, method);
}
