/** Every page slot stayed taken for the whole bounded wait; the API answers 429 with Retry-After. */
export class BrowserBusyError extends Error {
  readonly statusCode = 429;
  readonly headers: Record<string, string>;
  readonly retryAfterSeconds: number;

  constructor(waitedMs: number, retryAfterSeconds: number) {
    super(`all browser pages are busy (waited ${waitedMs} ms); retry later`);
    this.retryAfterSeconds = retryAfterSeconds;
    this.headers = { 'retry-after': String(retryAfterSeconds) };
  }
}

/** A page could not be opened: time-out, network error, bad response. */
export class NavigationError extends Error {
  readonly timedOut: boolean;

  constructor(message: string, timedOut = false) {
    super(message);
    this.timedOut = timedOut;
  }
}

/** The navigation became a download: the URL answers with a file to save, not a page to show. */
export class DownloadError extends NavigationError {
  readonly url: string;

  constructor(url: string) {
    super(`${url} is a file download, not a page`);
    this.url = url;
  }
}

/**
 * The page's renderer died under it (out of memory, a renderer fault, killed): no wait on the page
 * can end after that, so the run ends at once instead of waiting out the page budget.
 */
export class PageCrashedError extends Error {
  constructor() {
    super(
      "the page crashed the browser's renderer (out of memory or a renderer fault); the page cannot be read",
    );
  }
}

/** One action or step failed; `index` is its position in `actions` or `steps` (the `list`). */
export class ActionError extends Error {
  readonly index: number;

  constructor(list: string, index: number, type: string, message: string) {
    super(`${list}[${index}] (${type}) failed: ${message}`);
    this.index = index;
  }
}

/** Where Playwright's internals start in a message: its call log, or a boxed log of older versions. */
const INTERNALS = /^\s*(call log:|={3,}.*={3,})\s*$/i;
const STACK_FRAME = /^\s+at\s/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: terminal colours are what it removes
const ANSI = /\u001b\[[0-9;]*m/g;

/**
 * An error as a caller may read it, the one way errors become the `error` or `warning` text of an
 * answer: Playwright's call log (every step it took, with selectors, element states and retries),
 * any boxed log, stack frames and terminal colours are left out; what the message says stays.
 */
export function callerText(err: unknown): string {
  const text = (err instanceof Error ? err.message : String(err)).replace(ANSI, '');
  const kept: string[] = [];
  for (const line of text.split('\n')) {
    if (INTERNALS.test(line)) break;
    if (!STACK_FRAME.test(line)) kept.push(line);
  }
  return kept.join('\n').trim() || 'unknown error';
}

/** First line of a Playwright error as a caller may read it, without the method that threw it. */
export function shortMessage(err: unknown): string {
  return callerText(err)
    .split('\n')[0]!
    .replace(/^\w+\.\w+: /, '')
    .trim();
}
