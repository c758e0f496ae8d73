/**
 * The two extractors the main-content bench times and scores, as text: Readability 0.6 on
 * linkedom (its textContent, as the published baseline) and our converter's markdown read as
 * text. One definition for the in-process pass and the timing workers (`timing-worker.ts`).
 */

import { Readability } from '@mozilla/readability';
import { DOMParser } from 'linkedom';
import { convertHtml } from '../../src/content/index.ts';
import type { Page } from './data.ts';
import { markdownText } from './metrics.ts';

/** A page Readability throws on counts as extracting nothing. */
export function readability(page: Page): string {
  const doc = new DOMParser().parseFromString(page.html, 'text/html');
  try {
    return new Readability(doc as never).parse()?.textContent ?? '';
  } catch {
    return '';
  }
}

export function ours(page: Page, includeComments = false): string {
  return markdownText(
    convertHtml({
      html: page.html,
      url: page.url,
      format: 'markdown',
      onlyMainContent: true,
      includeComments,
    }).content,
  );
}

export const EXTRACTORS = { readability, ours } as const;
export type ExtractorName = keyof typeof EXTRACTORS;
