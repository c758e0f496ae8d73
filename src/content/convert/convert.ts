import {
  absoluteUrl,
  documentBase,
  lazyAttributeSource,
  metadataTags,
  parseHtml,
  resolveNoscripts,
  srcsetSource,
} from '../dom/index.ts';
import { selectMainContent, shippedModel } from '../main/index.ts';
import { toMarkdown } from './markdown.ts';
import { extractMetadata } from './metadata.ts';
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

/** Is `el` one that `a[href], img, source[src], video[src], audio[src], iframe[src]` selects? */
function holdsUrl(el: Element): boolean {
  const name = el.localName;
  if (name === 'img') return true;
  if (name === 'a') return el.hasAttribute('href');
  return MEDIA_WITH_SRC.has(name) && el.hasAttribute('src');
}

const MEDIA_WITH_SRC = new Set(['source', 'video', 'audio', 'iframe']);

/** The http(s) links a page gives: what a link's href reads as once absolute. */
const HTTP = /^https?:/i;

/**
 * One pass over the page's elements that makes its URLs absolute and reads its links: every http(s) link, absolute, without its fragment, in
 * document order, first occurrence kept. The links are read before each element is changed, as
 * the page gives them.
 */
function absolutise(elements: readonly Element[], base: string): string[] {
  const links = new Set<string>();
  for (const el of elements) {
    if (!holdsUrl(el)) continue;
    // linkedom makes tagName anew on every read (upper-casing the local name): read once.
    const tag = el.tagName;
    const attr = URL_ATTRIBUTE[tag]!;
    const abs = absoluteUrl(el.getAttribute(attr), base);
    if (tag === 'A' && abs && HTTP.test(abs)) links.add(abs.replace(/#.*$/, ''));
    if (abs) el.setAttribute(attr, abs);
    if (tag !== 'IMG') continue;
    const real =
      lazyAttributeSource(el, base) ??
      (abs?.startsWith('http') ? undefined : srcsetSource(el, base));
    if (real) el.setAttribute('src', real);
  }
  return [...links];
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
  // One walk of the tree for the metadata, the URLs and the main content's first readings: on
  // linkedom each selector query walks the whole page. Nothing below moves an element until the
  // main content is picked, so the list stays the page's.
  const elements = [...doc.querySelectorAll('*')];
  const tags = metadataTags(elements);
  const base = documentBase(doc, input.url, tags);
  const metadata = extractMetadata(tags, base);
  const links = absolutise(elements, base);

  let root: Element | undefined;
  if (input.onlyMainContent) {
    root = selectMainContent(
      doc,
      shippedModel(),
      { includeComments: input.includeComments },
      elements,
    );
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
