import type { ConvertOutput, OutputFormat } from '../content/index.ts';
import type { PageContext } from './context.ts';

/**
 * Converts HTML for one request, each (page, format, main-content choice) once: the render
 * decision reads the page's main content as markdown, and the result reuses that conversion
 * when it asks for the same.
 */
export class PageConverter {
  readonly #ctx: PageContext;
  readonly #memo = new Map<string, { html: string; out: Promise<ConvertOutput> }>();

  constructor(ctx: PageContext) {
    this.#ctx = ctx;
  }

  convert(
    html: string,
    url: string,
    format: OutputFormat,
    onlyMainContent: boolean,
    includeComments = false,
  ): Promise<ConvertOutput> {
    const key = `${format}|${onlyMainContent}|${includeComments}|${url}`;
    const hit = this.#memo.get(key);
    if (hit?.html === html) return hit.out;
    const out = this.#ctx.services.content.convert(
      { html, url, format, onlyMainContent, includeComments },
      { key: this.#ctx.userId, signal: this.#ctx.signal },
    );
    this.#memo.set(key, { html, out });
    return out;
  }

  /** A conversion of `html` made elsewhere (with the judgement of an HTTP answer), kept for reuse. */
  adopt(
    html: string,
    url: string,
    format: OutputFormat,
    onlyMainContent: boolean,
    out: ConvertOutput,
  ): void {
    // The render decision reads the main content as served by default: comments left out.
    this.#memo.set(`${format}|${onlyMainContent}|false|${url}`, {
      html,
      out: Promise.resolve(out),
    });
  }
}
