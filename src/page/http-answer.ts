import {
  BLOCK_PAGE_TEXT,
  type BlockVerdict,
  decodeBody,
  detectBlock,
  judgeMainContent,
  needsJavaScript,
  visibleText,
} from '../acquire/index.ts';
import { convertHtml } from './convert.ts';
import type { ConvertOutput } from './types.ts';

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
