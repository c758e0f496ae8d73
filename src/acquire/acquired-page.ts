import type { AcquireMethod } from '../contract/index.ts';
import { type BodyKind, bodyKind, declaredKind } from './body-kind.ts';
import { decodeBody } from './decode.ts';
import { FetchFailure } from './errors.ts';

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

/**
 * An HTTP answer as an acquired page: its kind found (unless the caller found it already) and its
 * text decoded, once.
 */
export function acquiredFromHttp(
  res: {
    url: string;
    statusCode: number;
    headers: Record<string, string>;
    body: Buffer;
  },
  kind = bodyKind(res.headers['content-type'] ?? '', res.body),
): AcquiredPage {
  const contentType = res.headers['content-type'] ?? '';
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

/**
 * A page a browser rendered, as an acquired page. A document the browser showed by a type that is
 * no page (an image, a video, a PDF in the viewer) is binary: what it rendered is a frame around
 * the file, empty of the file's content.
 */
export function acquiredFromBrowser(
  page: { url: string; statusCode: number; html: string; contentType?: string },
  method: AcquireMethod,
): AcquiredPage {
  const declared = page.contentType === undefined ? 'html' : declaredKind(page.contentType);
  if (declared === 'binary' || declared === 'pdf')
    return {
      url: page.url,
      statusCode: page.statusCode,
      contentType: page.contentType!,
      body: Buffer.from(page.html),
      kind: 'binary',
      method,
    };
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

/**
 * A file a browser navigation downloaded, as an acquired page. Only a PDF is read: nothing but its
 * bytes says what any other download is (an archive, an attachment), and a download is no page.
 */
export function acquiredFromDownload(
  file: { url: string; filename: string; body: Buffer },
  method: AcquireMethod,
): AcquiredPage {
  if (bodyKind('', file.body) !== 'pdf')
    throw new FetchFailure(
      'unsupported-content',
      `${file.url} is a file download ("${file.filename}"), not a page: only a PDF download is read`,
      200,
    );
  return {
    url: file.url,
    statusCode: 200,
    contentType: 'application/pdf',
    body: file.body,
    kind: 'pdf',
    method,
  };
}
