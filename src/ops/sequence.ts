import type { Page } from 'playwright-core';
import { microsToUsd, sequenceCost, summaryCost } from '../billing/index.ts';
import { acquiredFromBrowser } from '../acquire/index.ts';
import { BlockedPageError, BrowserBusyError, runAction, settledContent, type Action, type ActionEnv, type BrowserMethod, type DocumentState } from '../browser/index.ts';
import { summarise, type OutputFormat, type SummaryRequest } from '../content/index.ts';
import { BROWSER_METHODS, browse } from './browse.ts';
import type { OpContext } from './context.ts';
import { PageConverter, renderPage, type PageMetadataResult } from './page-result.ts';
import { proxyRoute, type ProxyRequest } from './proxy.ts';

export type SequenceStep = Action | { type: 'scrape' };

export interface SequenceInput {
  startUrl: string;
  steps: SequenceStep[];
  type?: OutputFormat;
  extractMetadata?: boolean;
  /** Main content only at each breakpoint; default true, like scrape. */
  onlyMainContent?: boolean;
  /** An instruction for the LLM, answered at each breakpoint as its `content`. */
  summary?: SummaryRequest;
  /** Geo-targeted: the browser's requests leave through that country's proxy. */
  proxy?: ProxyRequest;
}

export interface Breakpoint {
  url: string;
  markdown?: string;
  html?: string;
  stepIndex: number;
  metadata?: PageMetadataResult;
  content?: string;
}

export interface SequenceResult {
  success: boolean;
  data: Breakpoint[];
  totalBreakpoints: number;
  completedBreakpoints: number;
  method: BrowserMethod;
  totalTimeMs: number;
  error?: string;
  failedAtStepIndex?: number;
  timestamp: string;
  cost: number;
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

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Runs the steps on the opened page; a failing step ends the run, keeping what was captured. */
async function runSteps(page: Page, steps: SequenceStep[], env: ActionEnv, doc: DocumentState, deadline: number): Promise<Run> {
  const captured: Captured[] = [];
  for (const [i, step] of steps.entries()) {
    try {
      if (step.type === 'scrape') {
        const html = await settledContent(page, { doc, deadline: Math.max(deadline, Date.now() + BREAKPOINT_SETTLE_MS) });
        captured.push({ stepIndex: i, url: page.url(), statusCode: doc.statusCode(), html });
      }
      else await runAction(page, step, i, env, 'steps');
    } catch (err) {
      // A dead browser is the pool's to handle: it re-runs the whole sequence on a fresh one.
      if (page.isClosed() || page.context().browser()?.isConnected() === false) throw err;
      const text = err instanceof BlockedPageError ? `steps[${i}] (scrape) failed: ${err.message}` : message(err);
      return { captured, failedAtStepIndex: i, error: text };
    }
  }
  return { captured };
}

/**
 * Adds each breakpoint's summary as its `content`, all at once. A breakpoint whose summary fails
 * ends the sequence there, like a failing step: it and the breakpoints after it are dropped.
 */
async function summariseBreakpoints(summary: SummaryRequest, data: Breakpoint[], markdowns: string[], run: Run, ctx: OpContext): Promise<Run> {
  const settled = await Promise.allSettled(
    data.map((b, i) => summarise(ctx.services.config.summary, { query: summary.query, url: b.url, markdown: markdowns[i]! }, ctx.signal)),
  );
  if (ctx.signal.aborted) throw ctx.signal.reason;
  for (const [i, outcome] of settled.entries()) {
    if (outcome.status === 'fulfilled') {
      data[i]!.content = outcome.value;
      continue;
    }
    const stepIndex = data[i]!.stepIndex;
    data.splice(i);
    return { captured: run.captured, failedAtStepIndex: stepIndex, error: `steps[${stepIndex}] (scrape) failed: ${message(outcome.reason)}` };
  }
  return run;
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
  let method: BrowserMethod = BROWSER_METHODS[0]!;
  try {
    const out = await browse({ url: input.startUrl, proxy: proxyRoute(ctx, input.proxy) }, ctx, (opened) => runSteps(opened.page, input.steps, opened.env, opened, opened.deadline));
    run = out.value;
    method = out.method;
  } catch (err) {
    if (ctx.signal.aborted || err instanceof BrowserBusyError) throw err;
    if (err instanceof BlockedPageError) method = BROWSER_METHODS.at(-1)!;
    run = { captured: [], failedAtStepIndex: 0, error: `opening startUrl failed: ${message(err)}` };
  }

  const data: Breakpoint[] = [];
  const markdowns: string[] = [];
  const converter = new PageConverter(ctx);
  const opts = { type, onlyMainContent: input.onlyMainContent ?? true, extractMetadata: input.extractMetadata ?? false, pdfStrategy: 'local' as const, ...(input.summary ? { summary: input.summary } : {}) };
  for (const c of run.captured) {
    const { fields, markdown } = await renderPage(acquiredFromBrowser(c, method), opts, ctx, converter);
    markdowns.push(markdown);
    data.push({ url: c.url, ...fields, stepIndex: c.stepIndex });
  }
  if (input.summary) run = await summariseBreakpoints(input.summary, data, markdowns, run, ctx);
  let cost = ctx.meter.charge('sequence', data.length, sequenceCost(data.length));
  if (input.summary) cost += ctx.meter.charge('summary', data.length, summaryCost(data.length));
  return {
    success: run.error === undefined,
    data,
    totalBreakpoints,
    completedBreakpoints: data.length,
    method,
    totalTimeMs: Math.round(performance.now() - started),
    ...(run.error !== undefined ? { error: run.error, failedAtStepIndex: run.failedAtStepIndex } : {}),
    timestamp: new Date().toISOString(),
    cost: microsToUsd(cost),
  };
}
