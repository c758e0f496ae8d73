import { convertHtml } from './convert.ts';
import { convertPdf, type PdfConversion, type PdfConvertOptions } from './pdf.ts';
import { selectFields, type SelectedValue, type Selectors } from './select.ts';
import type { ConvertInput, ConvertOutput } from './types.ts';

/** Piscina task: one page converted on a worker thread. */
export default function convert(input: ConvertInput): ConvertOutput {
  return convertHtml(input);
}

/** Piscina task `pdf`: pdf.js parses on the calling thread, so PDFs are read here too. */
export function pdf(input: { bytes: Uint8Array; options: Omit<PdfConvertOptions, 'signal'> }): Promise<PdfConversion> {
  return convertPdf(input.bytes, input.options);
}

/** Piscina task `select`: selector extraction parses the page, which is CPU like a conversion. */
export function select(input: { html: string; url: string; selectors: Selectors }): Record<string, SelectedValue> {
  return selectFields(input.html, input.url, input.selectors);
}
