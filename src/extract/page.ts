import type { Config } from '../config.ts';
import {
  ContentDeadlineError,
  type ContentRun,
  type ContentThreads,
  type Selectors,
} from '../content/index.ts';
import type { FinishReason } from '../llm/index.ts';
import { ExtractError, extractJson } from './llm-extract.ts';

/**
 * The `extract` request field: a JSON Schema (and an optional instruction) for the LLM, or
 * CSS selectors read without one. Exactly one of `schema` and `selectors` is set (checked at
 * request time).
 */
export interface ExtractRequest {
  schema?: object;
  prompt?: string;
  selectors?: Selectors;
}

/** What extraction adds to one page's result. */
export interface PageExtraction {
  /** The object (valid against the schema), or the selected fields. */
  json?: unknown;
  warning?: string;
  /** The model's finish reason when it was not a normal stop. */
  finishReason?: FinishReason;
  /** Why no object came back, starting with `extract:`. */
  error?: string;
  /** Whether the LLM produced a valid object: what the extract price is charged for. */
  llmUsed: boolean;
}

/** Whether the request needs the page as markdown (the LLM reads markdown; selectors read HTML). */
export function needsMarkdown(request: ExtractRequest | undefined): boolean {
  return request?.schema !== undefined;
}

/**
 * Extracts from one page. `html` is the page's HTML, absent for text and PDF pages, which
 * selectors cannot read. Never throws for the model's or the page's fault: that is `error`.
 */
export async function extractPage(
  config: Pick<Config, 'llm' | 'extract'>,
  content: ContentThreads,
  request: ExtractRequest,
  page: { url: string; markdown: string; html?: string },
  run: ContentRun & { signal: AbortSignal },
): Promise<PageExtraction> {
  if (request.selectors) {
    if (page.html === undefined)
      return {
        error: 'extract: selectors need an HTML page, and this page is not HTML',
        llmUsed: false,
      };
    try {
      return {
        json: await content.select(
          { html: page.html, url: page.url, selectors: request.selectors },
          run,
        ),
        llmUsed: false,
      };
    } catch (err) {
      if (!(err instanceof ContentDeadlineError)) throw err;
      return { error: `extract: ${err.message}`, llmUsed: false };
    }
  }
  try {
    const out = await extractJson(
      config,
      {
        schema: request.schema!,
        prompt: request.prompt,
        pages: [{ url: page.url, markdown: page.markdown }],
      },
      run,
    );
    return { ...out, llmUsed: true };
  } catch (err) {
    if (!(err instanceof ExtractError)) throw err;
    return {
      error: err.message,
      ...(err.finishReason !== undefined ? { finishReason: err.finishReason } : {}),
      llmUsed: false,
    };
  }
}
