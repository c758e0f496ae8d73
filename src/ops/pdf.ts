import type { Page } from 'playwright-core';
import { safeFileName } from '../artifacts/index.ts';
import { microsToUsd, PRICES_MICROS } from '../billing/index.ts';
import { BrowserBusyError, callerText, openUrl, setHtml } from '../browser/index.ts';
import type { PdfResult } from '../contract/index.ts';
import { settledContent, trackDocument } from '../page/index.ts';
import type { OpContext } from './context.ts';

export type PageSize = 'A4' | 'Letter' | 'Legal';
export type MarginValue = string | number;

export interface PdfOptions {
  /** Names the downloaded file. */
  title?: string;
  pageSize?: PageSize;
  landscape?: boolean;
  /** CSS lengths ("12mm", "0.5in") or pixels. */
  margin?: { top?: MarginValue; right?: MarginValue; bottom?: MarginValue; left?: MarginValue };
  printBackground?: boolean;
  /** Deadline for loading the page or HTML. */
  timeoutMs?: number;
}

export const PDF_TIMEOUT_MS = { default: 30_000, min: 1_000, max: 120_000 } as const;

async function printPdf(
  source: { html: string } | { url: string },
  opts: PdfOptions,
  ctx: OpContext,
): Promise<PdfResult> {
  const started = performance.now();
  const durationMs = () => Math.round(performance.now() - started);
  const timeoutMs = opts.timeoutMs ?? PDF_TIMEOUT_MS.default;
  try {
    // PDFs are printed by the headless browser: headful Chromium (the stealth method) cannot print.
    const pdf = await ctx.services.browser.run(
      'browser',
      async (page: Page, env) => {
        if ('html' in source) await setHtml(page, source.html, timeoutMs);
        else {
          const doc = trackDocument(page, env);
          const deadline = Date.now() + timeoutMs;
          await openUrl(page, source.url, env.guard, timeoutMs);
          // A challenge or block page is never printed as if it were the page.
          await settledContent(page, { doc, deadline, justOpened: true });
          if (doc.statusCode() >= 400)
            throw new Error(`the page answered HTTP ${doc.statusCode()}`);
        }
        return page.pdf({
          format: opts.pageSize ?? 'A4',
          landscape: opts.landscape ?? false,
          margin: opts.margin,
          printBackground: opts.printBackground ?? true,
        });
      },
      { key: ctx.userId, signal: ctx.signal },
    );
    const stored = await ctx.services.artifacts.put(pdf, {
      fileName: safeFileName(opts.title, 'pdf', 'document'),
      contentType: 'application/pdf',
    });
    const cost = ctx.meter.charge('pdf', 1, PRICES_MICROS.pdf);
    return { success: true, url: stored.url, durationMs: durationMs(), cost: microsToUsd(cost) };
  } catch (err) {
    if (ctx.signal.aborted || err instanceof BrowserBusyError) throw err;
    return {
      success: false,
      error: callerText(err),
      durationMs: durationMs(),
      cost: 0,
    };
  }
}

/** Prints HTML to a PDF; its subresources load through the egress proxy like any page's. */
export function pdfFromHtml(
  input: PdfOptions & { html: string },
  ctx: OpContext,
): Promise<PdfResult> {
  return printPdf({ html: input.html }, input, ctx);
}

/** Opens a URL in the browser and prints it to a PDF. */
export function pdfFromUrl(
  input: PdfOptions & { url: string },
  ctx: OpContext,
): Promise<PdfResult> {
  return printPdf({ url: input.url }, input, ctx);
}
