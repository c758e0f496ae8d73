import type { ConvertOutput, ListingItem, OutputFormat, TagSelection } from '../content/index.ts';

/** What a page can be returned as; several may be asked for in one call. */
export const PAGE_FORMATS = ['markdown', 'html', 'rawHtml', 'links', 'listing'] as const;
export type PageFormat = (typeof PAGE_FORMATS)[number];

export interface PageFields {
  markdown?: string;
  html?: string;
  rawHtml?: string;
  links?: string[];
  /** The page's repeated cards (product tiles, result entries): [] when it has none. */
  listing?: ListingItem[];
}

export interface FormatRequest {
  /** The single format of the spec's `type`, used when `formats` is not given. */
  type: OutputFormat;
  formats?: readonly PageFormat[];
  onlyMainContent: boolean;
  /** Readers' comment threads under a story stay in the main content. */
  includeComments: boolean;
  /** CSS selectors: keep only these elements / drop these, before conversion. */
  includeTags?: readonly string[];
  excludeTags?: readonly string[];
  /** A summary is written from markdown, so markdown is made even when not returned. */
  needsMarkdown: boolean;
}

export interface ConvertedPage {
  fields: PageFields;
  metadata: { title: string; description: string; canonicalUrl: string };
  /** The page as markdown, for a summary. */
  markdown: string;
  /** Every absolute link on the page, whatever was asked for (a crawl follows them). */
  links: string[];
}

/** Converts HTML to one format (a PageConverter, which reuses a conversion the render decision made). */
export type HtmlConverter = (
  html: string,
  url: string,
  format: OutputFormat,
  onlyMainContent: boolean,
  includeComments: boolean,
) => Promise<ConvertOutput>;

/** Reads a page's repeated cards (on a content worker, under its deadline). */
export type ListingReader = (html: string, url: string) => Promise<ListingItem[]>;

/** Narrows a page to the caller's includeTags/excludeTags (on a content worker, under its deadline). */
export type TagNarrower = (selection: TagSelection) => Promise<string>;

const wanted = (req: FormatRequest): readonly PageFormat[] => req.formats ?? [req.type];

/**
 * Converts HTML into every asked format, converting once per distinct output (markdown, html) and
 * reusing the rest: `rawHtml` is the page as served, `links` come with any conversion, `listing`
 * is read beside the conversions from the same narrowed page.
 */
export async function convertFormats(
  rawHtml: string,
  url: string,
  req: FormatRequest,
  convert: HtmlConverter,
  narrow: TagNarrower,
  readListing: ListingReader,
): Promise<ConvertedPage> {
  const formats = wanted(req);
  const html = await narrow({ html: rawHtml, include: req.includeTags, exclude: req.excludeTags });
  const outputs = new Set<OutputFormat>(
    formats.filter((f): f is OutputFormat => f === 'markdown' || f === 'html'),
  );
  if (req.needsMarkdown) outputs.add('markdown');
  // Links and metadata come from any conversion; markdown is the cheapest to ask for when none was.
  if (outputs.size === 0) outputs.add('markdown');
  const [conversions, listing] = await Promise.all([
    Promise.all(
      [...outputs].map(
        async (format) =>
          [
            format,
            await convert(html, url, format, req.onlyMainContent, req.includeComments),
          ] as const,
      ),
    ),
    formats.includes('listing') ? readListing(html, url) : undefined,
  ]);
  const converted = new Map(conversions);
  const any = converted.values().next().value!;
  const fields: PageFields = {};
  for (const format of formats) {
    if (format === 'rawHtml') fields.rawHtml = rawHtml;
    else if (format === 'links') fields.links = any.links;
    else if (format === 'listing') fields.listing = listing ?? [];
    else fields[format] = converted.get(format)!.content;
  }
  return {
    fields,
    metadata: any.metadata,
    markdown: converted.get('markdown')?.content ?? '',
    links: any.links,
  };
}

/** A text or PDF body in the asked formats: the same text for each, and no links or cards. */
export function textFormats(
  text: string,
  req: Pick<FormatRequest, 'type' | 'formats'>,
): PageFields {
  const fields: PageFields = {};
  for (const format of req.formats ?? [req.type]) {
    if (format === 'links') fields.links = [];
    else if (format === 'listing') fields.listing = [];
    else fields[format] = text;
  }
  return fields;
}
