import { writeFile } from 'node:fs/promises';
import type { Session } from './api.ts';
import { CliError, EXIT } from './errors.ts';

type Page = {
  url: string;
  success: boolean;
  markdown?: string;
  html?: string;
  rawHtml?: string;
  links?: string[];
  listing?: Array<{ name: string; url: string; price?: number; currency?: string }>;
  content?: string;
  error?: string;
  statusCode?: number;
};

export function print(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

export function printJson(value: unknown): void {
  print(JSON.stringify(value, null, 2));
}

/** One card of a listing on one line: name, price when shown, link. */
const listingLine = (item: NonNullable<Page['listing']>[number]) =>
  [
    item.name,
    item.price !== undefined ? `${item.price}${item.currency ? ` ${item.currency}` : ''}` : '',
    item.url,
  ]
    .filter(Boolean)
    .join('\t');

/** A page for a reader: its content (summary first), or why it failed. */
export function pageText(page: Page): string {
  if (!page.success)
    return `failed (HTTP ${page.statusCode ?? 0}): ${page.error ?? 'unknown error'}`;
  const parts = [
    page.content,
    page.markdown ?? page.html ?? page.rawHtml,
    page.links?.join('\n'),
    page.listing?.map(listingLine).join('\n'),
  ].filter((p): p is string => p !== undefined && p !== '');
  return parts.join('\n\n');
}

/** Several pages, each under its URL. */
export function pagesText(pages: Page[]): string {
  return pages.map((p) => `## ${p.url}\n\n${pageText(p)}`).join('\n\n');
}

/** Writes the artifact behind a URL the API handed out (a screenshot, a PDF) to `path`. */
export async function saveArtifact(session: Session, url: string, path: string): Promise<number> {
  const file = await session.api.download(url);
  if (!file) throw new CliError(`could not download ${url}`, EXIT.unavailable);
  await writeFile(path, file.data);
  return file.data.length;
}
