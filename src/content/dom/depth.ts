import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';

/**
 * Deepest element nesting kept. Costs that grow with depth explode past a few hundred levels:
 * main-content scoring walks every node's ancestors and re-reads subtrees (2,000 nested divs held
 * a worker for minutes), and htmlparser2's own parser, under linkedom, moves its whole stack on
 * every tag (100,000 nested divs: half a minute to parse). Real pages stay well under 100.
 */
export const MAX_ELEMENT_DEPTH = 128;

const VOID_ELEMENTS = new Set([
  'area',
  'base',
  'basefont',
  'br',
  'col',
  'command',
  'embed',
  'frame',
  'hr',
  'image',
  'img',
  'input',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

/** Start tags that end an open element of the listed names (HTML's optional end tags). */
const IMPLIED_ENDS = new Map<string, Set<string>>();
const ends = (openers: string, closed: string) => {
  for (const name of openers.split(' '))
    IMPLIED_ENDS.set(name, new Set([...(IMPLIED_ENDS.get(name) ?? []), ...closed.split(' ')]));
};
ends(
  'address article aside blockquote details div dl fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hr main nav ol p pre section table ul',
  'p',
);
ends('li', 'li');
ends('dt dd', 'dt dd');
ends('option', 'option');
ends('optgroup', 'optgroup option');
ends('rt rp', 'rt rp');
ends('tr', 'tr td th');
ends('td th', 'td th');
ends('tbody tfoot', 'thead tbody');
ends('body', 'head');

/** Elements whose text is code, not content: past the limit they go whole, not just their tags. */
const CODE_ELEMENTS = new Set(['script', 'style']);

/** Elements whose children may close themselves with `/>`, as in XML. */
const FOREIGN_ROOTS = new Set(['svg', 'math']);

interface Open {
  name: string;
  cut: boolean;
  /** Where its start tag begins. */
  start: number;
}

/**
 * Finds the tags to take out so that no element is deeper than `maxDepth`. Linear in the page:
 * its own stack grows at the end, and a stray end tag is judged by a count, not a search.
 */
class DepthScan implements TokenizerCallbacks {
  readonly cuts: Array<[number, number]> = [];
  readonly #html: string;
  readonly #maxDepth: number;
  readonly #stack: Open[] = [];
  readonly #openCount = new Map<string, number>();
  #foreign = 0;
  #tagStart = 0;
  #tagName = '';

  constructor(html: string, maxDepth: number) {
    this.#html = html;
    this.#maxDepth = maxDepth;
  }

  onopentagname(start: number, endIndex: number): void {
    this.#tagStart = start - 1;
    this.#tagName = this.#html.slice(start, endIndex).toLowerCase();
    const implied = IMPLIED_ENDS.get(this.#tagName);
    while (implied && this.#stack.length && implied.has(this.#stack.at(-1)!.name)) this.#pop();
  }

  onopentagend(endIndex: number): void {
    if (VOID_ELEMENTS.has(this.#tagName)) return;
    const cut = this.#stack.length >= this.#maxDepth;
    if (cut && !CODE_ELEMENTS.has(this.#tagName)) this.cuts.push([this.#tagStart, endIndex + 1]);
    this.#stack.push({ name: this.#tagName, cut, start: this.#tagStart });
    this.#openCount.set(this.#tagName, (this.#openCount.get(this.#tagName) ?? 0) + 1);
    if (FOREIGN_ROOTS.has(this.#tagName)) this.#foreign++;
  }

  onselfclosingtag(endIndex: number): void {
    if (this.#foreign > 0) {
      if (this.#stack.length >= this.#maxDepth) this.cuts.push([this.#tagStart, endIndex + 1]);
      return;
    }
    this.onopentagend(endIndex);
  }

  onclosetag(start: number, endIndex: number): void {
    const name = this.#html.slice(start, endIndex).toLowerCase();
    if (VOID_ELEMENTS.has(name) || !this.#openCount.get(name)) return;
    for (;;) {
      const top = this.#pop();
      if (top.name !== name) continue;
      if (top.cut)
        this.cuts.push(
          CODE_ELEMENTS.has(name) ? [top.start, endIndex + 1] : [start - 2, endIndex + 1],
        );
      return;
    }
  }

  // Text, attributes, comments and the like do not change the depth.
  onattribdata(): void {}
  onattribentity(): void {}
  onattribend(): void {}
  onattribname(): void {}
  oncdata(): void {}
  oncomment(): void {}
  ondeclaration(): void {}
  onend(): void {}
  onprocessinginstruction(): void {}
  ontext(): void {}
  ontextentity(): void {}

  #pop(): Open {
    const top = this.#stack.pop()!;
    this.#openCount.set(top.name, this.#openCount.get(top.name)! - 1);
    if (FOREIGN_ROOTS.has(top.name)) this.#foreign--;
    return top;
  }
}

/**
 * The markup with every tag that would open an element deeper than `maxDepth` taken out, with its
 * end tag; what those elements held stays, one level up, as a browser's parser does past its
 * own limit (Chromium's is 512). Done on the markup, before anything builds a tree, so that
 * nothing downstream (linkedom, metadata, links, any main-content extractor, markdown) ever meets
 * a deeper one. htmlparser2's tokenizer, the one linkedom uses, says where tags start and end.
 */
export function boundDepth(html: string, maxDepth = MAX_ELEMENT_DEPTH): string {
  // A page with no more start tags than the limit cannot be deeper than it.
  if (countStartTags(html, maxDepth + 1) <= maxDepth) return html;
  const scan = new DepthScan(html, maxDepth);
  const tokenizer = new Tokenizer({ xmlMode: false, decodeEntities: false }, scan);
  tokenizer.write(html);
  tokenizer.end();
  if (!scan.cuts.length) return html;
  scan.cuts.sort((a, b) => a[0] - b[0]);
  const parts: string[] = [];
  let at = 0;
  for (const [start, end] of scan.cuts) {
    if (start < at) continue;
    parts.push(html.slice(at, start));
    at = end;
  }
  parts.push(html.slice(at));
  return parts.join('');
}

/**
 * Pages with fewer start tags than this are parsed before their depth is known: even nested to
 * the last tag, the parser's stack (moved on every tag) costs little at this size.
 */
const PARSE_FIRST_TAGS = 5_000;

/**
 * The bound's scan and the parser close a few elements differently (the parser ends an open
 * `<button>` or `<select>` at a form control, the scan at its end tag): a tree this much shallower
 * than the bound leaves the scan short of it whatever those differences add.
 */
const SHALLOW_DEPTH = MAX_ELEMENT_DEPTH - 32;

/** Has the tree an element more than `limit` levels down (the root element is level 1)? */
function deeperThan(el: Element, limit: number, level = 1): boolean {
  if (level > limit) return true;
  for (let child = el.firstElementChild; child; child = child.nextElementSibling)
    if (deeperThan(child, limit, level + 1)) return true;
  return false;
}

/**
 * `parse` of the markup bounded as `boundDepth` bounds it. A page of up to PARSE_FIRST_TAGS start
 * tags is parsed as it is first, and kept when its tree is well within the bound, where the
 * bound's scan would have cut nothing: that scan is a tokenization of the whole page, a fifth of
 * parsing it, and almost no page needs it. A deeper tree, or a larger page, is bounded first.
 */
export function parseWithinDepth(html: string, parse: (html: string) => Document): Document {
  if (countStartTags(html, PARSE_FIRST_TAGS) < PARSE_FIRST_TAGS) {
    const doc = parse(html);
    if (!doc.documentElement || !deeperThan(doc.documentElement, SHALLOW_DEPTH)) return doc;
  }
  return parse(boundDepth(html));
}

/** Start tags (`<` and a letter) in `html`, counted up to `enough`. */
function countStartTags(html: string, enough: number): number {
  let n = 0;
  for (let at = html.indexOf('<'); at >= 0 && n < enough; at = html.indexOf('<', at + 1)) {
    // Setting the case bit maps A-Z onto a-z and nothing else into that range.
    const next = html.charCodeAt(at + 1) | 0x20;
    if (next >= 0x61 && next <= 0x7a) n++;
  }
  return n;
}
