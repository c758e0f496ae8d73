import { absoluteUrl, firstMeta, firstTag } from '../dom/index.ts';
import type { PageMetadata } from './types.ts';

type MetaKey = ['name' | 'property', string];

/** The content of the first of the named <meta>s that has one; each name's first <meta> only. */
function meta(tags: readonly Element[], keys: MetaKey[]): string {
  for (const [attribute, value] of keys) {
    const content = firstMeta(tags, attribute, value)?.getAttribute('content')?.trim();
    if (content) return content;
  }
  return '';
}

/** A `rel` that lists `canonical`; rel values are matched whatever their case. */
const CANONICAL = /(?:^|\s)canonical(?:$|\s)/i;

/** The page's metadata, read from its `metadataTags`. */
export function extractMetadata(tags: readonly Element[], base: string): PageMetadata {
  const title =
    firstTag(tags, 'title')?.textContent?.trim() ||
    meta(tags, [
      ['property', 'og:title'],
      ['name', 'twitter:title'],
    ]) ||
    firstTag(tags, 'h1')?.textContent?.trim() ||
    '';
  const description = meta(tags, [
    ['name', 'description'],
    ['property', 'og:description'],
    ['name', 'twitter:description'],
  ]);
  const canonicalRef =
    tags
      .find((el) => el.localName === 'link' && CANONICAL.test(el.getAttribute('rel') ?? ''))
      ?.getAttribute('href') || meta(tags, [['property', 'og:url']]);
  return {
    title: title.replace(/\s+/g, ' '),
    description: description.replace(/\s+/g, ' '),
    canonicalUrl: absoluteUrl(canonicalRef, base) ?? '',
  };
}
