import type { Page } from 'playwright-core';
import { acquiredFromBrowser } from '../acquire/index.ts';
import { microsToUsd, sequenceCost } from '../billing/index.ts';
import {
  type ActionEnv,
  BrowserBusyError,
  type BrowserMethod,
  callerText,
  runAction,
} from '../browser/index.ts';
import type { OutputFormat } from '../content/index.ts';
import {
  type AcquireMethod,
  BROWSER_RUNGS,
  type Breakpoint,
  type SequenceResult,
  type SequenceStep,
} from '../contract/index.ts';
import type { ExtractRequest, SummaryRequest } from '../extract/index.ts';
import {
  BlockedPageError,
  browse,
  type DocumentState,
  PageConverter,
  pageOutputs,
  settledContent,
} from '../page/index.ts';
import type { OpContext } from './context.ts';
import { chargeExtras, extrasNeedMarkdown, extrasUntilFailure } from './page-extras.ts';
import { type ProxyRequest, proxyRoute } from './proxy.ts';

export interface SequenceInput {
  startUrl: string;
  steps: SequenceStep[];
  type?: OutputFormat;
  extractMetadata?: boolean;
  /** Main content only at each breakpoint; default true, like scrape. */
  onlyMainContent?: boolean;
  /** Readers' comment threads under a story stay in the main content (default false). */
  includeComments?: boolean;
  /** An instruction about the page, answered at each breakpoint as its `content` (by the LLM, or extractively). */
  summary?: SummaryRequest;
  /** Structured extraction at each breakpoint, as its `json`. */
  extract?: ExtractRequest;
  /** Geo-targeted: the browser's requests leave through that country's proxy. */
  proxy?: ProxyRequest;
  /** The engines the caller allows (methodsFor); only the browsers among them run a sequence. */
  methods?: AcquireMethod[];
}

interface Captured {
  stepIndex: number;
  url: string;
  statusCode: number;
  html: string;
}

interface Run {
  captured: Captured[];
  failedAtStepIndex?: number;
  error?: string;
}

/** A breakpoint late in a long sequence still gets this long to settle, past the page budget. */
const BREAKPOINT_SETTLE_MS = 8_000;

/** Runs the steps on the opened page; a failing step ends the run, keeping what was captured. */
async function runSteps(
  page: Page,
  steps: SequenceStep[],
  env: ActionEnv,
  doc: DocumentState,
  deadline: number,
): Promise<Run> {
  const captured: Captured[] = [];
  for (const [i, step] of steps.entries()) {
    try {
      if (step.type === 'scrape') {
        const html = await settledContent(page, {
          doc,
          deadline: Math.max(deadline, Date.now() + BREAKPOINT_SETTLE_MS),
        });
        captured.push({ stepIndex: i, url: page.url(), statusCode: doc.statusCode(), html });
      } else await runAction(page, step, i, env, 'steps');
    } catch (err) {
      // A dead browser is the pool's to handle: it re-runs the whole sequence on a fresh one.
      if (page.isClosed() || page.context().browser()?.isConnected() === false) throw err;
      const text =
        err instanceof BlockedPageError
          ? `steps[${i}] (scrape) failed: ${callerText(err)}`
          : callerText(err);
      return { captured, failedAtStepIndex: i, error: text };
    }
  }
  return { captured };
}

/**
 * Opens `startUrl` in the browser (stealth if the headless browser is turned away there) and
 * runs the steps in order; each `scrape` step is a breakpoint converted (and summarised, when a
 * summary is asked for) like a scrape. Charges per breakpoint kept, also when a later step fails.
 */
export async function sequence(input: SequenceInput, ctx: OpContext): Promise<SequenceResult> {
  const started = performance.now();
  const type = input.type ?? 'markdown';
  const totalBreakpoints = input.steps.filter((s) => s.type === 'scrape').length;
  let run: Run;
  const methods = input.methods?.filter((m): m is BrowserMethod => m !== 'http') ?? BROWSER_RUNGS;
  let method: BrowserMethod = methods[0]!;
  try {
    const out = await browse(
      { url: input.startUrl, proxy: proxyRoute(ctx, input.proxy), methods },
      ctx,
      (opened) => runSteps(opened.page, input.steps, opened.env, opened, opened.deadline),
    );
    run = out.value;
    method = out.method;
  } catch (err) {
    if (ctx.signal.aborted || err instanceof BrowserBusyError) throw err;
    if (err instanceof BlockedPageError) method = methods.at(-1)!;
    run = {
      captured: [],
      failedAtStepIndex: 0,
      error: `opening startUrl failed: ${callerText(err)}`,
    };
  }

  const data: Breakpoint[] = [];
  const pages: Array<{ markdown: string; html: string }> = [];
  const converter = new PageConverter(ctx);
  const opts = {
    type,
    onlyMainContent: input.onlyMainContent ?? true,
    includeComments: input.includeComments ?? false,
    extractMetadata: input.extractMetadata ?? false,
    pdfStrategy: 'local' as const,
    needsMarkdown: extrasNeedMarkdown(input),
  };
  for (const c of run.captured) {
    const { fields, markdown } = await pageOutputs(
      acquiredFromBrowser(c, method),
      opts,
      ctx,
      converter,
    );
    pages.push({ markdown, html: c.html });
    data.push({ url: c.url, ...fields, stepIndex: c.stepIndex });
  }
  let extrasMicros = 0;
  if (input.summary || input.extract) {
    // A breakpoint whose summary or extraction fails ends the sequence there, like a failing step.
    const kept = await extrasUntilFailure(
      input,
      data.map((b, i) => ({ url: b.url, ...pages[i]! })),
      ctx,
    );
    kept.extras.forEach((extras, i) => {
      Object.assign(data[i]!, extras.fields);
    });
    if (kept.failure) {
      const stepIndex = data[kept.failure.index]!.stepIndex;
      data.splice(kept.failure.index);
      run = {
        captured: run.captured,
        failedAtStepIndex: stepIndex,
        error: `steps[${stepIndex}] (scrape) failed: ${kept.failure.error}`,
      };
    }
    extrasMicros = chargeExtras(ctx, kept.summaries, kept.extractions);
  }
  const cost = ctx.meter.charge('sequence', data.length, sequenceCost(data.length)) + extrasMicros;
  return {
    success: run.error === undefined,
    data,
    totalBreakpoints,
    completedBreakpoints: data.length,
    method,
    totalTimeMs: Math.round(performance.now() - started),
    ...(run.error !== undefined
      ? { error: run.error, failedAtStepIndex: run.failedAtStepIndex }
      : {}),
    timestamp: new Date().toISOString(),
    cost: microsToUsd(cost),
  };
}
