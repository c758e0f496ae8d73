import { extractLinks } from './links.ts';
import { selectMainContent } from './main-content.ts';
import { toMarkdown } from './markdown.ts';
import { extractMetadata } from './metadata.ts';
import { absoluteUrl, documentBase, parseHtml } from './parse.ts';
import type { ConvertInput, ConvertOutput } from './types.ts';

const URL_ATTRIBUTES: Array<[string, string]> = [
  ['a[href]', 'href'],
  ['img[src]', 'src'],
  ['source[src]', 'src'],
  ['video[src]', 'src'],
  ['audio[src]', 'src'],
];

function absolutise(doc: Document, base: string): void {
  for (const [selector, attr] of URL_ATTRIBUTES) {
    for (const el of doc.querySelectorAll(selector)) {
      const abs = absoluteUrl(el.getAttribute(attr), base);
      if (abs) el.setAttribute(attr, abs);
    }
  }
  // Lazy-loaded images keep the real source in data-src until a script swaps it in.
  for (const img of doc.querySelectorAll('img[data-src]')) {
    const abs = absoluteUrl(img.getAttribute('data-src'), base);
    if (abs && !img.getAttribute('src')?.startsWith('http')) img.setAttribute('src', abs);
  }
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
    root = selectMainContent(doc);
  }

  if (input.format === 'html') {
    // The whole page is returned as served; the main content as the selected fragment.
    return { content: root ? lowerCaseTags(root.outerHTML) : input.html, metadata, links };
  }
  return { content: toMarkdown(root ?? doc.body ?? doc.documentElement), metadata, links };
}
