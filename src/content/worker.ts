import { taskStarted } from '../workers/index.ts';
import type { ConvertInput, ConvertOutput, ListingInput } from './convert/index.ts';
import {
  convertHtml,
  extractListing,
  type ListingItem,
  selectTags as narrow,
  type SelectedValue,
  type Selectors,
  selectFields,
  type TagSelection,
} from './convert/index.ts';
import { type PdfText, readPdfText } from './pdf/index.ts';

export interface ConvertTask {
  id: number;
  input: ConvertInput;
}

/** Piscina task `convert`: one page converted on a worker thread. */
export function convert({ id, input }: ConvertTask): ConvertOutput {
  taskStarted(id);
  return convertHtml(input);
}

/** Piscina task `listing`: the page's repeated cards, read from a parse of its own. */
export function listing({ id, input }: { id: number; input: ListingInput }): ListingItem[] {
  taskStarted(id);
  return extractListing(input.html, input.url);
}

/** Piscina task `pdfText`: pdf.js parses on the calling thread, so text layers are read here too. */
export function pdfText(input: {
  bytes: Uint8Array;
  maxPages: number;
}): Promise<PdfText & { pageCount: number }> {
  return readPdfText(input.bytes, input.maxPages);
}

/** Piscina task `select`: selector extraction parses the page, which is CPU like a conversion. */
export function select({
  id,
  input,
}: {
  id: number;
  input: { html: string; url: string; selectors: Selectors };
}): Record<string, SelectedValue> {
  taskStarted(id);
  return selectFields(input.html, input.url, input.selectors);
}

/** Piscina task `selectTags`: the page narrowed by the caller's includeTags/excludeTags. */
export function selectTags({ id, selection }: { id: number; selection: TagSelection }): string {
  taskStarted(id);
  return narrow(selection.html, selection.include, selection.exclude);
}
