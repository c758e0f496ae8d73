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

function visibleTextLength(text: string): number {
  return text.replace(/[#*_`>|\-[\]()!]/g, '').replace(/\s+/g, ' ').trim().length;
}

export function convertHtml(input: ConvertInput): ConvertOutput {
  const doc = parseHtml(input.html);
  const base = documentBase(doc, input.url);
  const metadata = extractMetadata(doc, base);
  const links = extractLinks(doc, base);
  absolutise(doc, base);

  let fragment: string | Node | undefined;
  if (input.onlyMainContent) fragment = selectMainContent(doc);
  if (fragment === undefined) {
    // Whole page asked for, or no main content found: the body stands for the page.
    fragment = input.format === 'html' && !input.onlyMainContent ? input.html : (doc.body ?? doc.documentElement);
  }

  if (input.format === 'html') {
    const html = typeof fragment === 'string' ? fragment : (fragment as Element).outerHTML;
    return { content: html, metadata, links, textLength: visibleTextLength(parseHtml(html).body?.textContent ?? '') };
  }
  const markdown = toMarkdown(fragment);
  return { content: markdown, metadata, links, textLength: visibleTextLength(markdown) };
}
