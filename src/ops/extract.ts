import pLimit from 'p-limit';
import { extractCost, microsToUsd, usdToMicros } from '../billing/index.ts';
import { BrowserBusyError } from '../browser/index.ts';
import type { FetchResult } from '../contract/index.ts';
import { ExtractError, extractJson, type PageText } from '../extract/index.ts';
import type { FinishReason } from '../llm/index.ts';
import type { OpContext } from './context.ts';
import { failure, scrape } from './scrape.ts';

/** POST /v1/extract: one object, valid against `schema`, from every page of `urls` together. */
export interface ExtractInput {
  urls: string[];
  schema: object;
  prompt?: string;
}

export interface ExtractPageOutcome {
  url: string;
  success: boolean;
  statusCode: number;
  error?: string;
}

export interface ExtractResult {
  success: boolean;
  json?: unknown;
  error?: string;
  /** The ways the last answer missed the schema, when that is why it failed. */
  validationErrors?: string[];
  warning?: string;
  finishReason?: FinishReason;
  /** Each URL's fetch, in input order; the object is drawn from the successful ones. */
  pages: ExtractPageOutcome[];
  timestamp: string;
  cost: number;
}

function outcome(r: FetchResult): ExtractPageOutcome {
  return {
    url: r.url,
    success: r.success,
    statusCode: r.statusCode,
    ...(r.error !== undefined ? { error: r.error } : {}),
  };
}

/**
 * Fetches every URL as main-content markdown (as a batch does, a failed page never sinking the
 * rest), then asks the model once for one object across all the pages fetched. Charges each
 * fetch, and the extract price per page read only when the object validated.
 */
export async function extractAcross(input: ExtractInput, ctx: OpContext): Promise<ExtractResult> {
  const limit = pLimit(ctx.services.config.batchConcurrency);
  const one = (url: string) =>
    scrape({ url, type: 'markdown' }, ctx).catch((err: unknown) => {
      if (err instanceof BrowserBusyError && !ctx.signal.aborted) return failure(url, err);
      throw err;
    });
  const fetched = await Promise.all(input.urls.map((url) => limit(() => one(url))));
  const fetchMicros = fetched.reduce((sum, r) => sum + usdToMicros(r.cost), 0);
  const pages: PageText[] = fetched
    .filter((r) => r.success && r.markdown !== undefined)
    .map((r) => ({ url: r.url, markdown: r.markdown! }));
  const base = { pages: fetched.map(outcome) };
  const done = (
    fields: Omit<ExtractResult, 'pages' | 'timestamp' | 'cost'>,
    micros: number,
  ): ExtractResult => ({
    ...fields,
    ...base,
    timestamp: new Date().toISOString(),
    cost: microsToUsd(micros),
  });
  if (pages.length === 0)
    return done(
      {
        success: false,
        error: 'extract: no page could be fetched, so there was nothing to extract from',
      },
      fetchMicros,
    );
  try {
    const out = await extractJson(
      ctx.services.config,
      { schema: input.schema, prompt: input.prompt, pages },
      { key: ctx.userId, signal: ctx.signal },
    );
    const micros =
      fetchMicros + ctx.meter.charge('extract', pages.length, extractCost(pages.length));
    return done(
      {
        success: true,
        json: out.json,
        ...(out.warning !== undefined ? { warning: out.warning } : {}),
      },
      micros,
    );
  } catch (err) {
    if (!(err instanceof ExtractError)) throw err;
    return done(
      {
        success: false,
        error: err.message,
        ...(err.violations !== undefined ? { validationErrors: err.violations } : {}),
        ...(err.finishReason !== undefined ? { finishReason: err.finishReason } : {}),
      },
      fetchMicros,
    );
  }
}
