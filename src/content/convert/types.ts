export type OutputFormat = 'markdown' | 'html';

export interface ConvertInput {
  html: string;
  /** The page's final URL: relative links and images are made absolute against it (or its <base>). */
  url: string;
  format: OutputFormat;
  onlyMainContent: boolean;
  /** With the main content, readers' comment threads under a story stay (off by default). */
  includeComments?: boolean;
}

/** A page whose repeated cards are read (listing.ts); `url` resolves their links and pictures. */
export interface ListingInput {
  html: string;
  url: string;
}

export interface PageMetadata {
  title: string;
  description: string;
  canonicalUrl: string;
}

export interface ConvertOutput {
  /** Markdown when format is markdown; the selected HTML when format is html. */
  content: string;
  metadata: PageMetadata;
  /** Absolute http(s) links of the whole page, in document order, deduplicated. */
  links: string[];
}
