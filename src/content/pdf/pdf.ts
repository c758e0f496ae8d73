import type { OcrLane, SizedPage } from './ocr-lane.ts';
import type { PdfText } from './pdf-text.ts';

export type PdfStrategy = 'ocr' | 'local' | 'auto';

export interface PdfConvertOptions {
  strategy: PdfStrategy;
  maxPages: number;
  /** Whose PDF this is (the user id): OCR pages of different keys take turns. */
  key: string;
  signal?: AbortSignal;
}

export interface PdfConversion {
  text: string;
  title: string;
  pageCount: number;
  /** Pages whose OCR was started: what the OCR price applies to, text found or not. */
  ocrPages: number;
}

/** Where a conversion reads a PDF's text layer (a worker thread, or inline) and runs its OCR. */
export interface PdfReaders {
  text(bytes: Uint8Array, maxPages: number): Promise<PdfText & { pageCount: number }>;
  ocr: OcrLane;
}

/** A page with fewer characters than this in its text layer is taken to be a scan. */
const SCANNED_PAGE_CHARS = 20;

/**
 * PDF to text by the caller's strategy: `local` reads the text layer only; `ocr` recognises every
 * page from its rendering; `auto` reads the text layer and recognises only the pages that have
 * next to none (scans inside an otherwise digital document).
 */
export async function convertPdf(
  bytes: Uint8Array,
  opts: PdfConvertOptions,
  readers: PdfReaders,
): Promise<PdfConversion> {
  const layer = await readers.text(bytes, opts.maxPages);
  const pages = [...layer.pages];
  const sized = (i: number): SizedPage => ({
    n: i + 1,
    widthPt: layer.sizes[i]![0],
    heightPt: layer.sizes[i]![1],
  });
  let toOcr: SizedPage[] = [];
  if (opts.strategy === 'ocr') toOcr = pages.map((_, i) => sized(i));
  else if (opts.strategy === 'auto')
    toOcr = pages.flatMap((text, i) =>
      text.replace(/\s/g, '').length < SCANNED_PAGE_CHARS ? [sized(i)] : [],
    );
  let ocrPages = 0;
  if (toOcr.length > 0) {
    const recognised = await readers.ocr.read(bytes, toOcr, opts.key, opts.signal);
    for (const [n, text] of recognised.texts) pages[n - 1] = text;
    ocrPages = recognised.attempted;
  }
  return {
    text: pages.filter(Boolean).join('\n\n'),
    title: layer.title,
    pageCount: layer.pageCount,
    ocrPages,
  };
}
