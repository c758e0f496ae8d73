import { parentPort } from 'node:worker_threads';
import { convertHtml } from './convert.ts';
import { convertPdf, type PdfConversion, type PdfConvertOptions } from './pdf.ts';
import type { ConvertInput, ConvertOutput } from './types.ts';

export interface ConvertTask {
  id: number;
  input: ConvertInput;
}

/** Told to the pool as a conversion begins, so its deadline counts from there. */
export interface ConversionStarted {
  conversionStarted: number;
}

/** Piscina task: one page converted on a worker thread. */
export default function convert({ id, input }: ConvertTask): ConvertOutput {
  parentPort?.postMessage({ conversionStarted: id } satisfies ConversionStarted);
  return convertHtml(input);
}

/** Piscina task `pdf`: pdf.js parses on the calling thread, so PDFs are read here too. */
export function pdf(input: { bytes: Uint8Array; options: Omit<PdfConvertOptions, 'signal'> }): Promise<PdfConversion> {
  return convertPdf(input.bytes, input.options);
}
