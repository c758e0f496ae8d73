import { ocrPdfPages } from './pdf-ocr.ts';
import { readPdfText } from './pdf-text.ts';

export type PdfStrategy = 'ocr' | 'local' | 'auto';

export interface PdfConvertOptions {
  strategy: PdfStrategy;
  maxPages: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface PdfConversion {
  text: string;
  title: string;
  pageCount: number;
  /** Pages read by OCR: what the OCR price applies to. */
  ocrPages: number;
}

/** A page with fewer characters than this in its text layer is taken to be a scan. */
const SCANNED_PAGE_CHARS = 20;

/**
 * PDF to text by the caller's strategy: `local` reads the text layer only; `ocr` recognises every
 * page from its rendering; `auto` reads the text layer and recognises only the pages that have
 * next to none (scans inside an otherwise digital document).
 */
export async function convertPdf(bytes: Uint8Array, opts: PdfConvertOptions): Promise<PdfConversion> {
  const layer = await readPdfText(bytes, opts.maxPages);
  const pages = [...layer.pages];
  let toOcr: number[] = [];
  if (opts.strategy === 'ocr') toOcr = pages.map((_, i) => i + 1);
  else if (opts.strategy === 'auto') toOcr = pages.flatMap((text, i) => (text.replace(/\s/g, '').length < SCANNED_PAGE_CHARS ? [i + 1] : []));
  if (toOcr.length > 0) {
    const recognised = await ocrPdfPages(bytes, toOcr, { timeoutMs: opts.timeoutMs, signal: opts.signal });
    for (const [n, text] of recognised) pages[n - 1] = text;
  }
  return {
    text: pages.filter(Boolean).join('\n\n'),
    title: layer.title,
    pageCount: layer.pageCount,
    ocrPages: toOcr.length,
  };
}
