import { shippedModel } from './block-model.ts';
import { extractLinks } from './links.ts';
import { selectMainContent } from './main-content.ts';
import { toMarkdown } from './markdown.ts';
import { extractMetadata } from './metadata.ts';
import { resolveNoscripts } from './noscript.ts';
import { absoluteUrl, documentBase, parseHtml } from './parse.ts';
import type { ConvertInput, ConvertOutput } from './types.ts';

/** The attribute holding each element's URL; images are matched whatever they hold, for their lazy source. */
const URL_ATTRIBUTE: Record<string, string> = {
  A: 'href',
  IMG: 'src',
  SOURCE: 'src',
  VIDEO: 'src',
  AUDIO: 'src',
  IFRAME: 'src',
};

/** One pass over the page (each querySelectorAll walks the whole tree in linkedom). */
function absolutise(doc: Document, base: string): void {
  for (const el of doc.querySelectorAll(
    'a[href], img, source[src], video[src], audio[src], iframe[src]',
  )) {
    // linkedom makes tagName anew on every read (upper-casing the local name): read once.
    const tag = el.tagName;
    const attr = URL_ATTRIBUTE[tag]!;
    const abs = absoluteUrl(el.getAttribute(attr), base);
    if (abs) el.setAttribute(attr, abs);
    if (tag !== 'IMG') continue;
    const real =
      lazyAttributeSource(el, base) ??
      (abs?.startsWith('http') ? undefined : srcsetSource(el, base));
    if (real) el.setAttribute('src', real);
  }
}

/**
 * Attributes in which lazy-loading scripts keep an image's real source while `src` holds nothing
 * or a placeholder (a data: URI of a blank SVG or GIF), most common first over 1,657 real pages.
 */
const LAZY_SRC = ['data-src', 'data-lazy-src', 'nitro-lazy-src', 'lazy-src', 'data-original'];
const LAZY_SRCSET = ['srcset', 'data-srcset', 'data-lazy-srcset', 'nitro-lazy-srcset'];

/** An attribute by name whatever its case: React prints `srcSet`, and linkedom keeps the case it read. */
function attribute(el: Element, name: string): string | null {
  for (const attr of el.attributes) if (attr.name.toLowerCase() === name) return attr.value;
  return null;
}

/** The widest candidate of a srcset (`url 640w, url 1280w` or `url 1x, url 2x`). */
function widestCandidate(srcset: string): string | undefined {
  let best: string | undefined;
  let bestSize = -1;
  for (const candidate of srcset.split(/,\s+/)) {
    const [url, descriptor = '1x'] = candidate.trim().split(/\s+/);
    const size = Number.parseFloat(descriptor) || 0;
    if (url && size > bestSize) {
      best = url;
      bestSize = size;
    }
  }
  return best;
}

/**
 * The real source of an image shown by a script: what a lazy-loading attribute holds, which the
 * script puts in `src` whatever `src` holds before (a data: URI, nothing, or a placeholder GIF
 * served from the site). Without this the markdown carried the placeholder and lost the picture.
 */
function lazyAttributeSource(img: Element, base: string): string | undefined {
  for (const name of LAZY_SRC) {
    const value = attribute(img, name);
    // A flag some scripts keep there (`data-src="false"`) is not a path.
    if (!value || !/[./]/.test(value)) continue;
    const abs = absoluteUrl(value, base);
    if (abs) return abs;
  }
  return undefined;
}

/** Else, when `src` holds no picture, the widest candidate of a srcset on it or on a `<source>` of its `<picture>`. */
function srcsetSource(img: Element, base: string): string | undefined {
  const sets = LAZY_SRCSET.map((name) => attribute(img, name));
  const picture = img.parentElement?.tagName === 'PICTURE' ? img.parentElement : undefined;
  for (const source of picture?.querySelectorAll('source') ?? [])
    sets.push(...LAZY_SRCSET.map((name) => attribute(source, name)));
  for (const set of sets) {
    const abs = set ? absoluteUrl(widestCandidate(set), base) : undefined;
    if (abs) return abs;
  }
  return undefined;
}

/** Readability creates its wrappers as "DIV" and "P", which linkedom serialises as written. */
function lowerCaseTags(html: string): string {
  return html.replace(
    /<(\/?)([A-Z][A-Z0-9]*)(?=[\s/>])/g,
    (_m, slash: string, name: string) => `<${slash}${name.toLowerCase()}`,
  );
}

export function convertHtml(input: ConvertInput): ConvertOutput {
  const doc = parseHtml(input.html);
  const base = documentBase(doc, input.url);
  const metadata = extractMetadata(doc, base);
  const links = extractLinks(doc, base);
  absolutise(doc, base);

  let root: Element | undefined;
  if (input.onlyMainContent) {
    root = selectMainContent(doc, shippedModel(), { includeComments: input.includeComments });
  } else if (input.format !== 'html') {
    // The main content's boilerplate pass reads them; the whole page's markdown too: outside a
    // no-script copy such a page can be an empty app (19 of the 1,657 data-set pages, forum
    // threads, came back as nothing or a few words).
    resolveNoscripts(doc);
  }

  if (input.format === 'html') {
    // The whole page is returned as served; the main content as the selected fragment.
    return { content: root ? lowerCaseTags(root.outerHTML) : input.html, metadata, links };
  }
  return { content: toMarkdown(root ?? doc.body ?? doc.documentElement), metadata, links };
}
