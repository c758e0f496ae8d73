import { FairLane } from '../../fair/index.ts';
import { type OcrResult, ocrPdfPages } from './pdf-ocr.ts';

export interface OcrLimits {
  /** Pages read by OCR at once, across all users; more wait their turn, users in turn. */
  concurrency: number;
  /** Deadline of rendering or recognising one page. */
  pageTimeoutMs: number;
  /** Time one document may take in all, its pages' turns included; pages not reached by then are left out. */
  budgetMs: number;
  /** Largest rendering of one page, in pixels: a bigger page is rendered at a lower resolution. */
  maxPixels: number;
}

/** A page to read, with its size in PDF points (1/72 in). */
export interface SizedPage {
  n: number;
  widthPt: number;
  heightPt: number;
}

/** 200 dpi reads body text well at a fraction of 300's time. */
const DPI = 200;
/** Below this, no text is legible anyway; a page this large is rendered at it regardless. */
const MIN_DPI = 20;

/**
 * The resolution a page is rendered at: 200 dpi unless that would exceed `maxPixels`. A blank
 * 4,000-point page at 200 dpi is 123 million pixels, half a minute of tesseract's time; nothing
 * printed on a page that size is small enough to need the full resolution.
 */
export function ocrDpi(page: SizedPage, maxPixels: number): number {
  const inches = (Math.max(page.widthPt, 1) / 72) * (Math.max(page.heightPt, 1) / 72);
  const fitting = Math.floor(Math.sqrt(maxPixels / inches));
  return Math.max(MIN_DPI, Math.min(DPI, fitting));
}

/**
 * OCR's own lane, apart from the HTML conversion workers: rendering and recognising run in
 * child processes, a bounded number of pages at a time, each document within a time budget, so a
 * PDF built to be slow to read delays other OCR requests at worst, never a page's conversion.
 * Pages, not documents, take turns between keys (a `FairLane`): one key's hundred-page PDFs delay
 * another key's page by about one page's time.
 */
export class OcrLane {
  readonly #limits: OcrLimits;
  readonly #pages: FairLane;

  constructor(limits: OcrLimits) {
    this.#limits = limits;
    this.#pages = new FairLane({ capacity: limits.concurrency, perKey: limits.concurrency });
  }

  /** Reads `pages` of a PDF for `key` (the user), each page in its turn. */
  async read(
    bytes: Uint8Array,
    pages: SizedPage[],
    key: string,
    signal?: AbortSignal,
  ): Promise<OcrResult> {
    signal?.throwIfAborted();
    const budget = AbortSignal.timeout(this.#limits.budgetMs);
    const within = signal ? AbortSignal.any([signal, budget]) : budget;
    const result = await ocrPdfPages(
      bytes,
      pages.map((p) => ({ n: p.n, dpi: ocrDpi(p, this.#limits.maxPixels) })),
      {
        timeoutMs: this.#limits.pageTimeoutMs,
        signal: within,
        turn: () => this.#pages.acquire(key, { signal: within }),
      },
    );
    signal?.throwIfAborted();
    return result;
  }
}
