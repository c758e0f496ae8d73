import { strikethrough, taskListItems } from '@joplin/turndown-plugin-gfm';
import TurndownService from 'turndown';
import { gfmTables } from './tables.ts';

function fenceLanguage(node: HTMLElement): string {
  const classes = `${node.getAttribute('class') ?? ''} ${node.querySelector('code')?.getAttribute('class') ?? ''}`;
  const match = classes.match(/(?:^|\s)(?:language|lang|highlight-source)-([\w+#.-]+)/i);
  return match?.[1]?.toLowerCase() ?? node.getAttribute('data-lang') ?? '';
}

function isPixel(img: HTMLElement): boolean {
  const w = img.getAttribute('width');
  const h = img.getAttribute('height');
  return (w !== null && Number(w) <= 1) || (h !== null && Number(h) <= 1);
}

/**
 * A template placeholder a page's script was meant to fill (`{{ product.price | currency }}`,
 * `{% block %}`): an expression, not words. Code keeps them, since turndown leaves code text alone.
 */
const PLACEHOLDER = /\{\{\s*[\w$.[\]'"]+(?:\s*\|[^{}]*)?\s*\}\}|\{%[^{}%]*%\}/g;

/** Prose text as a reader sees it: no placeholders, and runs of (non-breaking) spaces as one. */
function readerText(text: string): string {
  return text
    .replace(PLACEHOLDER, '')
    .replace(/[ \u00a0]{2,}/g, ' ')
    .replace(/\u00a0/g, ' ');
}

/**
 * An escaped underscore between letters or digits (`max\_size`). CommonMark never reads an
 * intraword underscore as emphasis, so the escape only splits identifiers for readers and
 * word counts.
 */
const INTRAWORD_UNDERSCORE = /(?<=[\p{L}\p{N}])\\_(?=[\p{L}\p{N}])/gu;

function createService(): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '*',
    hr: '---',
  });
  service.use([strikethrough, taskListItems, gfmTables]);
  const turndownEscape = service.escape.bind(service);
  service.escape = (text: string) =>
    turndownEscape(readerText(text)).replace(INTRAWORD_UNDERSCORE, '_');
  // Form controls go, but not <form> itself: forum engines and ASP.NET sites wrap whole pages in one.
  service.remove([
    'script',
    'style',
    'noscript',
    'template',
    'iframe',
    'object',
    'embed',
    'svg',
    'canvas',
    'button',
    'select',
    'input',
    'textarea',
  ] as never);
  // Turndown only fences <pre><code>; many sites highlight code in a bare <pre>, and the
  // language lives in a class on either element.
  service.addRule('fencedPre', {
    filter: (node) => node.nodeName === 'PRE',
    replacement: (_content, node) => {
      const el = node as HTMLElement;
      const code = (el.textContent ?? '').replace(/\n+$/, '');
      const fence = code.includes('```') ? '~~~' : '```';
      return `\n\n${fence}${fenceLanguage(el)}\n${code}\n${fence}\n\n`;
    },
  });
  // An icon link whose svg or image is gone would come out as "[](url)": nothing to read or click.
  service.addRule('emptyLink', {
    filter: (node) =>
      node.nodeName === 'A' && !node.textContent?.trim() && !node.querySelector('img'),
    replacement: () => '',
  });
  // A 1x1 image is a tracking pixel, and an image without a source shows nothing.
  service.addRule('invisibleImage', {
    filter: (node) =>
      node.nodeName === 'IMG' &&
      (!(node as HTMLElement).getAttribute('src') || isPixel(node as HTMLElement)),
    replacement: () => '',
  });
  // Turndown pads list markers to four columns ("-   item"); one space is what people and
  // LLM tokenizers expect, and nesting still works because continuation lines indent to the marker.
  service.addRule('listItem', {
    filter: 'li',
    replacement: (content, node, options) => {
      const parent = node.parentNode as HTMLElement | null;
      let prefix = `${options.bulletListMarker} `;
      if (parent?.nodeName === 'OL') {
        const start = Number(parent.getAttribute('start') ?? 1);
        prefix = `${start + Array.prototype.indexOf.call(parent.children, node)}. `;
      }
      const body = content
        .replace(/^\n+/, '')
        .replace(/\n+$/, '\n')
        .replace(/\n/gm, `\n${' '.repeat(prefix.length)}`);
      return prefix + body + (node.nextSibling && !/\n$/.test(body) ? '\n' : '');
    },
  });
  return service;
}

/**
 * An image without alt text would come out as `![](src)`, and a linked one (a news page's video
 * teasers, a shop's product tiles) as `[![](src)](href)`: a link a reader or a model cannot tell
 * from the next. Such an image takes the name a screen reader would announce: its own
 * `aria-label` or `title`, else, when it is all a link holds, the link's `aria-label` or `title`.
 */
function nameUnlabelledImages(root: ParentNode): void {
  for (const img of root.querySelectorAll('img')) {
    if (img.getAttribute('alt')?.trim()) continue;
    let name = img.getAttribute('aria-label')?.trim() || img.getAttribute('title')?.trim();
    const link = img.closest('a');
    if (!name && link && !link.textContent?.trim() && link.querySelectorAll('img').length === 1)
      name = link.getAttribute('aria-label')?.trim() || link.getAttribute('title')?.trim();
    if (name) img.setAttribute('alt', name.replace(/\s+/g, ' '));
  }
}

let service: TurndownService | undefined;

export function toMarkdown(root: Node | string): string {
  service ??= createService();
  // linkedom splits text at entities ("a&nbsp;&nbsp; b" is three nodes); one node per run of
  // text lets readerText see the whole run.
  if (typeof root !== 'string') {
    root.normalize();
    nameUnlabelledImages(root as unknown as ParentNode);
  }
  return service
    .turndown(root as never)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
