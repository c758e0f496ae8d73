import { type AcquiredPage, FetchFailure } from '../acquire/index.ts';
import type { OutputFormat, PageMetadata, PdfStrategy } from '../content/index.ts';
import type { ResultMetadata } from '../contract/index.ts';
import type { PageContext } from './context.ts';
import type { PageConverter } from './converter.ts';
import { convertFormats, type PageFields, type PageFormat, textFormats } from './formats.ts';

/** What a caller asks to get out of a page (scrape and each sequence breakpoint). */
export interface PageOutputOptions {
  type: OutputFormat;
  onlyMainContent: boolean;
  extractMetadata: boolean;
  /** How PDFs are read: `ocr` (default, as the spec says), `local` text layer only, `auto`. */
  pdfStrategy: PdfStrategy;
  /** Several formats in one call, instead of `type`'s one. */
  formats?: PageFormat[];
  /** CSS selectors of the elements to keep / to drop before conversion. */
  includeTags?: string[];
  excludeTags?: string[];
  /** Readers' comment threads under a story stay in the main content. */
  includeComments: boolean;
  /** Markdown is made even when not asked for: a summary or an extraction reads the page as markdown. */
  needsMarkdown: boolean;
  /** Receives the page's absolute links (a crawl follows them without parsing the page again). */
  onLinks?: LinksObserver;
}

/** Receives the absolute links of a converted HTML page. */
export type LinksObserver = (links: string[]) => void;

/**
 * A PDF in which nothing readable was found. Pages that went through OCR are still charged: the
 * work was done, and a free failure would make OCR free to abuse with pages built to be blank.
 */
export class UnreadablePdfError extends FetchFailure {
  readonly ocrPages: number;

  constructor(message: string, statusCode: number, ocrPages: number) {
    super('unsupported-content', message, statusCode);
    this.ocrPages = ocrPages;
  }
}

/** A page's outputs before summary, extraction and charges. */
export interface PageOutputs {
  /** The asked formats' content and, when asked, metadata. */
  fields: PageFields & { metadata?: ResultMetadata };
  /** PDF pages read by OCR, billed on top of the fetch. */
  ocrPages: number;
  /** What a summary or an LLM extraction reads: the page as markdown whatever the formats. */
  markdown: string;
  /** The page's HTML, for selector extraction; absent for text and PDF pages. */
  html?: string;
}

function metadataOf(page: AcquiredPage, found?: Partial<PageMetadata>): ResultMetadata {
  return {
    title: found?.title ?? '',
    description: found?.description ?? '',
    canonicalUrl: found?.canonicalUrl ?? '',
    finalUrl: page.url,
    contentType: page.contentType,
    contentLength: page.body.length,
  };
}

/**
 * Turns an acquired page into the asked outputs: PDF text, plain text, or converted HTML, with
 * metadata. An output added to scrape results (links, JSON) is added here.
 */
export async function pageOutputs(
  page: AcquiredPage,
  opts: PageOutputOptions,
  ctx: PageContext,
  converter: PageConverter,
): Promise<PageOutputs> {
  const meta = (found?: Partial<PageMetadata>) =>
    opts.extractMetadata ? { metadata: metadataOf(page, found) } : {};
  switch (page.kind) {
    case 'binary':
      throw new FetchFailure(
        'unsupported-content',
        `cannot convert binary content (served as ${page.contentType.split(';')[0]!.trim() || 'no type'}) to ${opts.type}`,
        page.statusCode,
      );
    case 'pdf': {
      const { config } = ctx.services;
      const pdf = await ctx.services.content.pdf(page.body, {
        strategy: opts.pdfStrategy,
        maxPages: config.pdfMaxPages,
        key: ctx.userId,
        signal: ctx.signal,
      });
      if (!pdf.text)
        throw new UnreadablePdfError(
          `the PDF has no readable text with pdfStrategy "${opts.pdfStrategy}"`,
          page.statusCode,
          pdf.ocrPages,
        );
      return {
        fields: { ...textFormats(pdf.text, opts), ...meta({ title: pdf.title }) },
        ocrPages: pdf.ocrPages,
        markdown: pdf.text,
      };
    }
    case 'text': {
      const text = page.text ?? '';
      return { fields: { ...textFormats(text, opts), ...meta() }, ocrPages: 0, markdown: text };
    }
    case 'html': {
      const html = page.text ?? '';
      const { type, formats, onlyMainContent, includeComments, includeTags, excludeTags } = opts;
      const out = await convertFormats(
        html,
        page.url,
        {
          type,
          formats,
          onlyMainContent,
          includeComments,
          includeTags,
          excludeTags,
          needsMarkdown: opts.needsMarkdown,
        },
        (...args) => converter.convert(...args),
        (selection) =>
          ctx.services.content.selectTags(selection, { key: ctx.userId, signal: ctx.signal }),
        (narrowed, at) =>
          ctx.services.content.listing(
            { html: narrowed, url: at },
            { key: ctx.userId, signal: ctx.signal },
          ),
      );
      opts.onLinks?.(out.links);
      return {
        fields: { ...out.fields, ...meta(out.metadata) },
        ocrPages: 0,
        markdown: out.markdown,
        html,
      };
    }
  }
}
