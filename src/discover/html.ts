import { Parser } from 'htmlparser2';

export interface PageLink {
  href: string;
  text: string;
}

export interface PageLinks {
  links: PageLink[];
  /** RSS and Atom feeds the page announces with <link rel="alternate">. */
  feeds: string[];
  /** The document's base URL (its <base href>, else the page URL). */
  base: string;
}

const FEED_TYPES = new Set(['application/rss+xml', 'application/atom+xml', 'application/rdf+xml']);
const MAX_LINK_TEXT = 200;

/**
 * Links of an HTML page with their text, read by htmlparser2's tokenizer: a map only needs hrefs
 * and words, so building a DOM per crawled page would be wasted work.
 */
export function extractPageLinks(html: string, pageUrl: string): PageLinks {
  const links: PageLink[] = [];
  const feeds: string[] = [];
  let base = pageUrl;
  let open: PageLink | undefined;
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (name === 'base' && attribs.href) {
          try {
            base = new URL(attribs.href, pageUrl).href;
          } catch {
            // A broken <base> is ignored, as browsers do.
          }
        } else if (name === 'a' && attribs.href !== undefined) {
          open = { href: attribs.href, text: attribs.title ?? '' };
          links.push(open);
        } else if (name === 'img' && open && attribs.alt) {
          open.text += ` ${attribs.alt}`;
        } else if (
          name === 'link' &&
          attribs.href &&
          /\balternate\b/i.test(attribs.rel ?? '') &&
          FEED_TYPES.has((attribs.type ?? '').toLowerCase())
        ) {
          feeds.push(attribs.href);
        }
      },
      ontext(text) {
        if (open && open.text.length < MAX_LINK_TEXT) open.text += text;
      },
      onclosetag(name) {
        if (name === 'a') open = undefined;
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  const resolve = (href: string) => {
    try {
      return new URL(href, base).href;
    } catch {
      return undefined;
    }
  };
  return {
    base,
    links: links.flatMap((l) => {
      const href = resolve(l.href);
      return href
        ? [{ href, text: l.text.replace(/\s+/g, ' ').trim().slice(0, MAX_LINK_TEXT) }]
        : [];
    }),
    feeds: feeds.flatMap((f) => resolve(f) ?? []),
  };
}
