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

/** One action or step failed; `index` is its position in `actions` or `steps` (the `list`). */
export class ActionError extends Error {
  readonly index: number;

  constructor(list: string, index: number, type: string, message: string) {
    super(`${list}[${index}] (${type}) failed: ${message}`);
    this.index = index;
  }
}

/** First line of a Playwright error, without its call log. */
export function shortMessage(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text
    .split('\n')[0]!
    .replace(/^\w+\.\w+: /, '')
    .trim();
}
