import { decodeBody } from '../acquire/index.ts';
import {
  type ContentRun,
  ContentThreads,
  type ConvertOutput,
  convertHtml,
} from '../content/index.ts';
import { judgeMainContent } from './main-content-signals.ts';
import {
  BLOCK_PAGE_TEXT,
  type BlockVerdict,
  detectBlock,
  needsJavaScript,
  visibleText,
} from './page-signals.ts';

/** An HTML answer to an HTTP fetch, as its bytes: decoded where it is read. */
export interface HttpAnswer {
  bytes: Uint8Array;
  contentType: string;
  /** The final URL, after redirects. */
  url: string;
  statusCode: number;
}

/** What the engine ladder needs to know of an HTML answer before it keeps it or tries a browser. */
export interface HttpAnswerReading {
  /** Why a browser should try the page instead, or undefined when this answer is the page. */
  escalate?: string;
  /** The answer is a challenge or block page. */
  block?: BlockVerdict;
  /** Its main content as markdown, made to judge it: the result reuses it when it asks for the same. */
  main?: ConvertOutput;
}

/**
 * Reads an HTML answer the way the ladder judges it: a block or challenge page, a page that needs
 * JavaScript (cheap regular expressions first), then its main content converted as the result
 * would see it and judged a placeholder or thin. Decoding, the regular expressions over the whole
 * page and the conversion are all CPU, so this runs on a conversion worker, given the bytes.
 */
export function readHttpAnswer(answer: HttpAnswer): HttpAnswerReading {
  const html = decodeBody(answer.bytes, answer.contentType, true).text;
  // Both signals read the page's visible text, made once and only as far as they look.
  const text = visibleText(html, BLOCK_PAGE_TEXT);
  const block = detectBlock(html, answer.statusCode, text);
  if (block) return { escalate: block.reason, block };
  if (answer.statusCode >= 400) return {};
  const obvious = needsJavaScript(html, text);
  if (obvious) return { escalate: obvious };
  const main = convertHtml({ html, url: answer.url, format: 'markdown', onlyMainContent: true });
  const verdict = judgeMainContent(main.content, html);
  return verdict ? { escalate: verdict.reason, main } : { main };
}

/** The content pool's threads run the page's worker module, which adds `httpAnswer` to content's tasks. */
export const PAGE_WORKER = new URL('./worker.ts', import.meta.url);

/** A content pool whose threads also read HTTP answers (readHttpAnswerOn). */
export function pageContentThreads(
  workers: number,
  convertTimeoutMs: number,
  ocr: ConstructorParameters<typeof ContentThreads>[2],
): ContentThreads {
  return new ContentThreads(workers, convertTimeoutMs, ocr, PAGE_WORKER);
}

/**
 * Reads an HTML answer to a fetch (decode, block and JavaScript signals, main content judged) on
 * a thread of `pool` (made by pageContentThreads): the main thread only hands over the bytes. They go
 * to the worker as a transferred copy, so neither the body nor its decoded text is serialised on
 * the way and the caller keeps its Buffer.
 */
export function readHttpAnswerOn(
  pool: ContentThreads,
  answer: HttpAnswer,
  run: ContentRun,
): Promise<HttpAnswerReading> {
  if (!pool.threaded) return Promise.resolve(readHttpAnswer(answer));
  const bytes = new Uint8Array(answer.bytes);
  return pool.runTask<HttpAnswerReading>(
    'httpAnswer',
    { answer: { ...answer, bytes } },
    [bytes.buffer],
    run,
    'converting the page',
  );
}
