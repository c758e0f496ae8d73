import { strikethrough, taskListItems } from '@joplin/turndown-plugin-gfm';
import TurndownService from 'turndown';
import { playableLink } from '../dom/index.ts';
import { isHeadingToggle } from '../main/index.ts';
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
 * An image that comes out as nothing: no source, a tracking pixel, or a source written into the
 * page as a data: URI (a lazy-loader's blank placeholder, or a picture as kilobytes of base64 that
 * no reader or model can use; the real source of a lazy image is found before, in convert.ts).
 */
function isInvisible(img: HTMLElement): boolean {
  const src = img.getAttribute('src')?.trim();
  return !src || /^data:/i.test(src) || isPixel(img);
}

/** A link that goes nowhere a reader can follow: a script, or the top of the same page. */
function goesNowhere(link: HTMLElement): boolean {
  const href = link.getAttribute('href')?.trim() ?? '';
  return href === '#' || /^javascript:/i.test(href);
}

/**
 * A template placeholder a page's script or CMS was meant to fill (`{{ product.price | currency }}`,
 * `{% block %}`, a shortcode `{{case-banner="/banners/hire"}}`): an expression, not words. Code
 * keeps them, since turndown leaves code text alone.
 */
const PLACEHOLDER =
  /\{\{\s*[\w$.[\]'"]+(?:\s*\|[^{}]*)?\s*\}\}|\{\{\s*[\w$.-]+\s*=\s*(?:"[^"{}]*"|'[^'{}]*')\s*\}\}|\{%[^{}%]*%\}/g;

/**
 * A page builder's or a CMS's shortcode printed as text because the plugin that expands it was
 * gone when the page was saved (`[vc_row css="..."]`, `[/vc_column_text]`, `[nectar_btn size="large"]`,
 * `[caption id="x"]`): WordPress's bracketed syntax, read by its shape and never by a list of
 * plugins. A closing tag (`[/name]`), an opening one with attributes (`name="value"`), and a bare
 * one whose name joins words with an underscore, as builders name theirs; a bracketed word of
 * prose (`[sic]`, `[1]`, `[citation needed]`) is none of these.
 */
const SHORTCODE =
  /\[\/[a-z][\w-]*\]|\[[a-z][\w-]*(?:\s+[\w-]+=(?:"[^"\]]*"|'[^'\]]*'|[^\s\]"']+))+\s*\/?\]|\[[a-z][a-z0-9]*_[\w-]*\s*\/?\]/gi;

/**
 * Zero-width characters that only steer layout (a zero-width space, a byte order mark), and
 * joiners that join nothing: site builders put a lone U+200D in empty paragraphs and bold runs.
 * A joiner between letters or emoji (Persian text, a family emoji) is kept. Also an icon font's
 * glyphs (Font Awesome's link, menu and arrow icons), which sites write as private-use code
 * points: outside that font they show as an empty box and name nothing (a documentation page's
 * heading links came out as `[\uf0c1](#section)`).
 */
const INVISIBLE =
  /[\u200b\ufeff\p{Co}]|(?<![\p{L}\p{M}\p{N}\p{Extended_Pictographic}])[\u200c\u200d]|[\u200c\u200d](?![\p{L}\p{M}\p{N}\p{Extended_Pictographic}])/gu;

/** Most text has none of these characters; a plain class finds that faster than INVISIBLE's lookarounds. */
const withoutInvisible = (text: string) =>
  /[\u200b-\u200d\ufeff\p{Co}]/u.test(text) ? text.replace(INVISIBLE, '') : text;

/**
 * A heading's permalink (Sphinx's and MkDocs' `¶`, Docusaurus' `#`, a `§` or a chain icon) or a
 * footnote's way back to its reference (`↩`): a glyph linking to a place on the same page. It
 * names nothing, and in a heading it would follow the heading's words into every copy of them
 * (`# Quickstart[¶](#quickstart "Link to this heading")`); a fifth of WCXB's documentation pages
 * print one beside every heading.
 */
function isPermalink(link: HTMLElement): boolean {
  const href = link.getAttribute('href')?.trim() ?? '';
  return (
    href.length > 1 &&
    href.startsWith('#') &&
    !link.querySelector('img') &&
    isPermalinkText(withoutInvisible(link.textContent ?? ''))
  );
}

/** Text of nothing but a permalink's or a way back's glyphs (with their emoji or text variation selectors), or nothing. */
const isPermalinkText = (text: string) => /^(?:[\s¶#§🔗⚓↩↑⬆^]|[\ufe0e\ufe0f])*$/u.test(text);

/** Elements turndown drops whole, text and all (see `service.remove` below). */
const DROPPED = new Set([
  'SCRIPT',
  'STYLE',
  'NOSCRIPT',
  'TEMPLATE',
  'IFRAME',
  'OBJECT',
  'EMBED',
  'SVG',
  'CANVAS',
  'BUTTON',
  'SELECT',
  'INPUT',
  'TEXTAREA',
]);

/** Dropped whole, but a heading's toggle button: its words are the heading's. */
const isDropped = (el: Element) => DROPPED.has(el.nodeName.toUpperCase()) && !isHeadingToggle(el);

/**
 * Whether an element shows no words in the markdown (invisible characters aside): an icon link,
 * an image's link. Text inside what turndown drops does not count: an icon's `<svg><title>`
 * (a logo link, a heading's permalink) left such links as `[](url)`.
 */
function wordless(el: Node): boolean {
  // Siblings rather than `childNodes`, an array linkedom builds on each call: this runs on every link.
  for (let child = el.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 3) {
      if (withoutInvisible((child as Text).data).trim()) return false;
    } else if (child.nodeType === 1 && !isDropped(child as Element)) {
      if (!wordless(child)) return false;
    }
  }
  return true;
}

/** Prose text as a reader sees it: no placeholders, shortcodes or invisible characters, and runs of (non-breaking) spaces as one. */
function readerText(text: string): string {
  const prose = withoutInvisible(text).replace(PLACEHOLDER, '');
  // Most text has no bracket, and a test for one is cheaper than the pattern's scan.
  return (prose.includes('[') ? prose.replace(SHORTCODE, '') : prose)
    .replace(/[ \u00a0]{2,}/g, ' ')
    .replace(/\u00a0/g, ' ');
}

/**
 * An escaped underscore between letters or digits (`max\_size`). CommonMark never reads an
 * intraword underscore as emphasis, so the escape only splits identifiers for readers and
 * word counts.
 */
const INTRAWORD_UNDERSCORE = /(?<=[\p{L}\p{N}])\\_(?=[\p{L}\p{N}])/gu;

const STRONG = new Set(['STRONG', 'B']);
const EMPHASIS = new Set(['EM', 'I']);

/** Whether a run of emphasis shows words (or a picture); an empty one writes nothing. */
const showsSomething = (node: Node | null): boolean =>
  !!node && (!wordless(node) || !!(node as Element).querySelector?.('img'));

/** Inline wrappers that write no markdown of their own, so a run of emphasis reads through their edges. */
const TRANSPARENT = new Set(['SPAN', 'FONT']);

/**
 * What a run of emphasis meets beside it on `side`: its sibling; at the edge of a wrapper that
 * writes nothing (a `<span>`), the wrapper's sibling; and inside such a wrapper beside it, the
 * wrapper's first or last child. An editor's markup splits a word so, `<b>trend</b><span><strong>s
 * </strong> for…</span>`, and the runs must still be written as one.
 */
function besideRun(node: Node, side: 'previousSibling' | 'nextSibling'): Node | null {
  let at = node;
  let beside = at[side];
  while (!beside && at.parentNode && TRANSPARENT.has(at.parentNode.nodeName.toUpperCase())) {
    at = at.parentNode;
    beside = at[side];
  }
  const into = side === 'nextSibling' ? 'firstChild' : 'lastChild';
  while (beside && TRANSPARENT.has(beside.nodeName.toUpperCase())) beside = beside[into];
  return beside;
}

/**
 * Whether a line break is the first (or last) thing `node` shows, white space aside. Runs are not
 * joined across one: a run ending in two `<br>`s ends a paragraph, and no emphasis spans two.
 */
function breakAtEdge(node: Node, edge: 'firstChild' | 'lastChild'): boolean {
  const step = edge === 'firstChild' ? 'nextSibling' : 'previousSibling';
  for (let child = node[edge]; child; child = child[step]) {
    if (child.nodeType === 3 && !(child as Text).data.trim()) continue;
    if (child.nodeName.toUpperCase() === 'BR') return true;
    return child.nodeType === 1 && breakAtEdge(child, edge);
  }
  return false;
}

/** Whether runs `a` and then `b`, of one kind and side by side, are written as one. */
const joined = (a: Node, b: Node) =>
  showsSomething(a) &&
  showsSomething(b) &&
  !breakAtEdge(a, 'lastChild') &&
  !breakAtEdge(b, 'firstChild');

/**
 * One kind of emphasis (`kind`: its tag names) written between `delimiter`s as CommonMark reads
 * them. Turndown wraps whatever the element holds, and CommonMark then prints the delimiters as
 * they are: a run that starts or ends with a line break or a non-breaking space (`**  \nTip:**`,
 * `## ** Meal plan **`), bold inside bold (`****Toner****`) or two runs side by side that split a
 * word (`**trend****s**`): 52 of the data sets' 1,657 pages showed stray asterisks so. Spaces and
 * breaks at a run's edges go outside it, a run inside a run of its kind writes no delimiters of
 * its own, and runs side by side are written as one, also across a span's edge (`besideRun`).
 */
function emphasisRule(kind: ReadonlySet<string>, delimiter: string): TurndownService.Rule {
  const sameKind = (node: Node) => kind.has(node.nodeName.toUpperCase());
  const insideSameKind = (node: Node) => {
    for (let up = node.parentNode; up; up = up.parentNode) if (sameKind(up)) return true;
    return false;
  };
  return {
    filter: (node) => sameKind(node),
    replacement: (content, node) => {
      if (!content.trim() || insideSameKind(node)) return content;
      const [, lead, words, trail] = content.match(/^(\s*)([\s\S]*?)(\s*)$/) as RegExpMatchArray;
      const previous = besideRun(node, 'previousSibling');
      const next = besideRun(node, 'nextSibling');
      const joinsPrevious = !!previous && sameKind(previous) && joined(previous, node);
      const joinsNext = !!next && sameKind(next) && joined(node, next);
      return `${lead}${joinsPrevious ? '' : delimiter}${words}${joinsNext ? '' : delimiter}${trail}`;
    },
  };
}

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
  service.remove((node) => isDropped(node));
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
      node.nodeName === 'A' &&
      wordless(node) &&
      [...node.querySelectorAll('img')].every((img) => isInvisible(img as HTMLElement)),
    replacement: () => '',
  });
  service.addRule('permalink', {
    filter: (node) => node.nodeName === 'A' && isPermalink(node as HTMLElement),
    replacement: () => '',
  });
  service.addRule('linkToNowhere', {
    filter: (node) => node.nodeName === 'A' && goesNowhere(node as HTMLElement),
    replacement: (content) => content,
  });
  // Added rules come before removals: a frame that plays something is a link, and what plays
  // nothing (other frames, a background loop) comes out empty, as a removal would.
  service.addRule('playable', {
    filter: ['video', 'audio', 'iframe'],
    replacement: (_content, node) => playableLink(node, service.escape),
  });
  service.addRule('invisibleImage', {
    filter: (node) => node.nodeName === 'IMG' && isInvisible(node as HTMLElement),
    replacement: () => '',
  });
  service.addRule('strong', emphasisRule(STRONG, '**'));
  service.addRule('emphasis', emphasisRule(EMPHASIS, '*'));
  // An ATX heading is one line: a heading holding a paragraph or a line break came out as "### "
  // with its words on the lines below, and one holding nothing as a bare "###".
  service.addRule('heading', {
    filter: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
    replacement: (content, node) => {
      const text = content.replace(/\s+/g, ' ').trim();
      return text ? `\n\n${'#'.repeat(Number(node.nodeName.charAt(1)))} ${text}\n\n` : '';
    },
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
      if (!content.trim()) return '';
      const body = content
        .replace(/^(?:[ \t]*\n)+/, '')
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
    if (!name && link && wordless(link) && link.querySelectorAll('img').length === 1)
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
  // Whitespace that reached the output outside prose (between inline elements, in list items'
  // indented blank lines, before the end of a block) says nothing: a non-breaking space is a
  // space, a zero-width space or byte order mark goes, a line of spaces is blank, one trailing
  // space goes, and so does a line break (two trailing spaces) that ends a paragraph.
  return service
    .turndown(root as never)
    .replace(/\u00a0/g, ' ')
    .replace(/[\u200b\ufeff]/g, '')
    .replace(/^[ \t]+$/gm, '')
    .replace(/(?<![ \t])[ \t](?=\n|$)/g, '')
    .replace(/[ \t]+\n(?=\n)/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
