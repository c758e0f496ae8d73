import type { AcquireMethod } from '../contract/index.ts';
import { decodeBody } from './decode.ts';

export type BodyKind = 'html' | 'text' | 'pdf' | 'binary';

/** What every engine hands on: one shape, whichever engine got the page. */
export interface AcquiredPage {
  /** Final URL, after redirects and script navigations. */
  url: string;
  statusCode: number;
  contentType: string;
  body: Buffer;
  kind: BodyKind;
  /** The decoded body of an HTML or text page (decoded once, here). */
  text?: string;
  method: AcquireMethod;
}

const TEXT_TYPES =
  /^(text\/|application\/(json|ld\+json|xml|javascript|x-javascript|ecmascript|rss\+xml|atom\+xml|x-ndjson|yaml|x-yaml|toml|csv)|[\w.-]+\/[\w.-]+\+(json|xml))/;

export function bodyKind(contentType: string, body: Buffer): BodyKind {
  const mime = contentType.split(';')[0]!.trim().toLowerCase();
  if (mime === 'text/html' || mime === 'application/xhtml+xml') return 'html';
  if (mime === 'application/pdf' || body.subarray(0, 5).toString('latin1') === '%PDF-')
    return 'pdf';
  if (TEXT_TYPES.test(mime)) return 'text';
  if (mime && mime !== 'application/octet-stream') return 'binary';
  // No usable type: look at the bytes, as a browser would.
  const head = body.subarray(0, 512).toString('latin1').trimStart().toLowerCase();
  if (
    head.startsWith('<!doctype html') ||
    head.startsWith('<html') ||
    /<(head|body|title|p|div)[\s>]/.test(head)
  )
    return 'html';
  return head.includes('\u0000') ? 'binary' : 'text';
}

/** An HTTP answer as an acquired page: its kind found and its text decoded, once. */
export function acquiredFromHttp(res: {
  url: string;
  statusCode: number;
  headers: Record<string, string>;
  body: Buffer;
}): AcquiredPage {
  const contentType = res.headers['content-type'] ?? '';
  const kind = bodyKind(contentType, res.body);
  const text =
    kind === 'html' || kind === 'text'
      ? decodeBody(res.body, contentType, kind === 'html').text
      : undefined;
  return {
    url: res.url,
    statusCode: res.statusCode,
    contentType,
    body: res.body,
    kind,
    ...(text !== undefined ? { text } : {}),
    method: 'http',
  };
}

/** A page a browser rendered, as an acquired page. */
export function acquiredFromBrowser(
  page: { url: string; statusCode: number; html: string },
  method: AcquireMethod,
): AcquiredPage {
  return {
    url: page.url,
    statusCode: page.statusCode,
    contentType: 'text/html; charset=utf-8',
    body: Buffer.from(page.html),
    kind: 'html',
    text: page.html,
    method,
  };
}
