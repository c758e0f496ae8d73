export interface PdfText {
  /** Text of each page, in order. */
  pages: string[];
  /** Each page's width and height in points (1/72 in), in order: what OCR would have to render. */
  sizes: Array<[number, number]>;
  title: string;
}

interface TextItem {
  str: string;
  hasEOL?: boolean;
}

/** The text layer of every page, read with pdf.js (no rendering, no OCR). */
export async function readPdfText(
  bytes: Uint8Array,
  maxPages: number,
): Promise<PdfText & { pageCount: number }> {
  // Loaded with the first PDF: pdf.js is some 50 MB of memory in every thread that loads it,
  // and most servers and conversion workers never read a PDF.
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  // pdf.js takes ownership of the buffer it is given; copy so the caller's bytes stay usable.
  const task = getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, verbosity: 0 });
  const doc = await task.promise;
  try {
    const pages: string[] = [];
    const sizes: Array<[number, number]> = [];
    const count = Math.min(doc.numPages, maxPages);
    for (let n = 1; n <= count; n++) {
      const page = await doc.getPage(n);
      const [x0, y0, x1, y1] = page.view as [number, number, number, number];
      sizes.push([Math.abs(x1 - x0), Math.abs(y1 - y0)]);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items as TextItem[]) {
        if (typeof item.str !== 'string') continue;
        text += item.str + (item.hasEOL ? '\n' : '');
      }
      pages.push(
        text
          .replace(/[ \t]+\n/g, '\n')
          .replace(/\n{3,}/g, '\n\n')
          .trim(),
      );
      page.cleanup();
    }
    const info = (await doc.getMetadata().catch(() => undefined))?.info as
      | { Title?: string }
      | undefined;
    return { pages, sizes, title: info?.Title?.trim() ?? '', pageCount: doc.numPages };
  } finally {
    await task.destroy();
  }
}
