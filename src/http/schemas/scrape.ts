import { Type, type Static } from 'typebox';
import { Actions } from './actions.ts';
import { Cost, Format, Metadata, ProxyObject, SummaryObject, Timestamp } from './common.ts';

const PdfStrategy = Type.Union([Type.Literal('ocr'), Type.Literal('local'), Type.Literal('auto')], {
  description: 'ocr: recognise every page; local: text layer only; auto: text layer, OCR for pages without one. Default ocr',
});

/** Fields a single scrape accepts, shared with batch items (which add nothing of their own). */
export const scrapeFields = {
  type: Type.Optional(Format),
  onlyMainContent: Type.Optional(Type.Boolean({ description: 'Remove navigation, ads and footers; default true' })),
  extractMetadata: Type.Optional(Type.Boolean({ description: 'Add page metadata; default false' })),
  summary: Type.Optional(SummaryObject),
  pdfStrategy: Type.Optional(PdfStrategy),
  actions: Type.Optional(Actions),
  proxy: Type.Optional(ProxyObject),
};

export const ScrapeSingleBody = Type.Object({ url: Type.String({ minLength: 1 }), ...scrapeFields }, { additionalProperties: false });
export type ScrapeSingleBody = Static<typeof ScrapeSingleBody>;

export const ScrapeBatchBody = Type.Object(
  {
    urls: Type.Array(Type.Union([Type.String({ minLength: 1 }), ScrapeSingleBody]), { minItems: 1 }),
    type: Type.Optional(Format),
    onlyMainContent: Type.Optional(Type.Boolean()),
    extractMetadata: Type.Optional(Type.Boolean()),
    summary: Type.Optional(SummaryObject),
    pdfStrategy: Type.Optional(PdfStrategy),
    proxy: Type.Optional(ProxyObject),
  },
  { additionalProperties: false },
);
export type ScrapeBatchBody = Static<typeof ScrapeBatchBody>;

export const FetchResult = Type.Object({
  url: Type.String(),
  success: Type.Boolean(),
  markdown: Type.Optional(Type.String()),
  html: Type.Optional(Type.String()),
  statusCode: Type.Number(),
  metadata: Type.Optional(Metadata),
  content: Type.Optional(Type.String()),
  method: Type.Optional(
    Type.Union([Type.Literal('http'), Type.Literal('browser'), Type.Literal('browser-stealth')], {
      description: 'How the page was acquired: plain HTTP, the headless browser, or browser-stealth (beyond the spec; absent when nothing was acquired)',
    }),
  ),
  timestamp: Type.Optional(Timestamp),
  cost: Cost,
  error: Type.Optional(Type.String()),
});

export const BatchResponse = Type.Object({
  results: Type.Array(FetchResult),
  total: Type.Number(),
  successful: Type.Number(),
  failed: Type.Number(),
  timestamp: Timestamp,
  cost: Cost,
});
