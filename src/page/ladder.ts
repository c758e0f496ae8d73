import {
  type AcquiredPage,
  acquiredFromBrowser,
  acquiredFromDownload,
  acquiredFromHttp,
  bodyKind,
  type HttpResponse,
  type ProxyRoute,
} from '../acquire/index.ts';
import type { BrowserMethod } from '../browser/index.ts';
import type { AcquireMethod, Action, MethodChoice } from '../contract/index.ts';
import { countBlock } from '../metrics/index.ts';
import { browse, type Opened } from './browse.ts';
import type { PageContext } from './context.ts';
import type { PageConverter } from './converter.ts';
import { readHttpAnswerOn } from './http-answer.ts';
import { type ContentVerdict, judgeMainContent } from './main-content-signals.ts';
import type { BlockVerdict } from './page-signals.ts';
import { BlockedPageError, settledContent } from './settle.ts';

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
  // Another engine altogether, for the sites that turn Chromium away however it presents itself.
  { method: 'browser-firefox', features: { javascript: true, actions: true, stealth: true } },
];

/** The rungs a caller's choice allows, in ladder order: `auto` is the whole ladder, a method that rung alone. */
export function methodsFor(choice: MethodChoice | undefined): AcquireMethod[] {
  if (choice === undefined || choice === 'auto') return ENGINE_LADDER.map((r) => r.method);
  return [choice];
}

/** Why these rungs cannot run browser actions, or undefined when one of them can. */
export function actionsRefusal(methods: readonly AcquireMethod[]): string | undefined {
  const can = ENGINE_LADDER.some((r) => r.features.actions && methods.includes(r.method));
  return can
    ? undefined
    : `${methods.join(', ')} fetches the page without a browser, so it runs no actions; ask for browser, browser-stealth, browser-firefox or auto`;
}

export interface AcquireRequest {
  url: string;
  /** The rungs the caller allows, in ladder order; default the whole ladder. */
  methods?: readonly AcquireMethod[];
  /** Browser actions run once the page settled; only engines with `actions` are tried. */
  actions: Action[];
  proxy?: ProxyRoute;
  /** Epoch ms the page must be acquired by. */
  deadline: number;
  /**
   * Something more to do with the page in the same browser load (a screenshot): the page then
   * loads as it looks (images and stylesheets too) at `viewport`, only engines with JavaScript are
   * tried, and `run` is handed the settled page of the rung that answers.
   */
  alongside?: PageVisit;
}

export interface PageVisit {
  viewport: { width: number; height: number };
  run(opened: Opened): Promise<void>;
}

/**
 * An HTTP answer as an acquired page, and why a browser should try instead (undefined when this
 * is the page). An HTML answer is read on a conversion worker from its bytes (decoded there, its
 * block and JavaScript signals, its main content judged) while this thread decodes its own copy
 * of the text for the result; the main content the worker converted is handed to the converter
 * for the result to reuse.
 */
async function judgedHttpPage(
  res: HttpResponse,
  ctx: PageContext,
  converter: PageConverter,
): Promise<{ page: AcquiredPage; reason?: string; block?: BlockVerdict }> {
  const contentType = res.headers['content-type'] ?? '';
  const kind = bodyKind(contentType, res.body);
  const reading =
    kind === 'html'
      ? readHttpAnswerOn(
          ctx.services.content,
          { bytes: res.body, contentType, url: res.url, statusCode: res.statusCode },
          { key: ctx.userId, signal: ctx.signal },
        )
      : undefined;
  const page = acquiredFromHttp(res, kind);
  const read = await reading;
  if (!read || page.text === undefined) return { page };
  if (read.block) countBlock('http', read.block);
  if (read.main) converter.adopt(page.text, page.url, 'markdown', true, read.main);
  return {
    page,
    ...(read.escalate ? { reason: read.escalate } : {}),
    ...(read.block ? { block: read.block } : {}),
  };
}

/** The main content of `html` judged as the result will see it: markdown of the main content. */
async function judgeContent(
  html: string,
  url: string,
  converter: PageConverter,
): Promise<ContentVerdict | undefined> {
  const main = await converter.convert(html, url, 'markdown', true);
  return judgeMainContent(main.content, html);
}

/**
 * Acquires a page by the ladder: over HTTP, then in the browser when the HTTP answer is a
 * challenge or its main content is a placeholder or thin, then stealthily when the browser is
 * blocked. Throws the last engine's error (BlockedPageError, PageNotReadyError, FetchFailure).
 */
export async function acquirePage(
  req: AcquireRequest,
  ctx: PageContext,
  converter: PageConverter,
): Promise<AcquiredPage> {
  const allowed = req.methods ?? ENGINE_LADDER.map((r) => r.method);
  const rungs = ENGINE_LADDER.filter(
    (r) =>
      allowed.includes(r.method) &&
      (req.actions.length === 0 || r.features.actions) &&
      (!req.alongside || r.features.javascript),
  );
  const triedBefore: string[] = [];
  if (rungs[0]!.method === 'http') {
    triedBefore.push('http');
    const timeoutMs = Math.max(
      1,
      Math.min(ctx.services.config.fetchTimeoutMs, req.deadline - Date.now()),
    );
    const res = await ctx.services.httpEngine.fetch(req.url, {
      signal: ctx.signal,
      proxy: req.proxy,
      timeoutMs,
    });
    const { page, reason, block } = await judgedHttpPage(res, ctx, converter);
    if (!reason) return page;
    if (rungs.length === 1) {
      // The caller asked for HTTP alone: a thin page is what HTTP gets, a wall is a failure.
      if (block) {
        const { message } = new BlockedPageError(block, res.statusCode);
        throw new BlockedPageError(block, res.statusCode, `${message}; only http was asked for`);
      }
      return page;
    }
    ctx.log.debug({ url: req.url, reason }, 'escalating to the browser');
  }
  const methods = rungs.filter((r) => r.features.javascript).map((r) => r.method as BrowserMethod);
  const judge = (html: string, url: string) => judgeContent(html, url, converter);
  const { value } = await browse(
    {
      url: req.url,
      actions: req.actions,
      proxy: req.proxy,
      methods,
      deadline: req.deadline,
      judge,
      revealLazy: true,
      contentOnly: !req.alongside,
      triedBefore,
      ...(req.alongside ? { viewport: req.alongside.viewport } : {}),
    },
    ctx,
    async (opened) => {
      const { page } = opened;
      // Actions can lead to a wall of their own (a form that answers with a captcha).
      const html =
        req.actions.length > 0
          ? await settledContent(page, { doc: opened, deadline: opened.deadline, judge })
          : opened.html;
      await req.alongside?.run(opened);
      return acquiredFromBrowser(
        {
          html,
          url: page.url(),
          statusCode: opened.statusCode(),
          contentType: opened.contentType(),
        },
        opened.env.method,
      );
    },
    acquiredFromDownload,
  );
  return value;
}
