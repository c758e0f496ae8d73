/**
 * What a reader of the markdown sees as a fault, counted per page: a link with nothing to click
 * or one that is only a heading's permalink glyph, an icon font's glyph, emphasis delimiters that
 * CommonMark prints as they are, markup or template syntax left in the prose, an entity written
 * out, an empty heading, a table row with nothing in any cell. Code is left out: there such text
 * is the content.
 */

/** Fenced blocks and inline code spans, whose text is the page's own. */
const FENCED = /^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm;
const INLINE_CODE = /`[^`\n]+`/g;

/** Patterns of their own, not the converter's predicates: a measure that reused them would miss what they miss. */
export const DEFECTS: ReadonlyArray<[string, RegExp]> = [
  ['permalink glyph', /\[(?:[\s¶#§🔗⚓↩↑⬆^]|[\ufe0e\ufe0f])+\]\(#/u],
  ['empty link', /(?<!!)\[\s*\]\([^)]*\)/],
  ['icon glyph', /\p{Co}/u],
  ['stray emphasis', /(?:^|[^*\\])\*{4}(?!\*)|(?:^|\s)\*\*\s+\S[^*\n]*\*\*/m],
  ['markup', /<\/?(?:script|style|div|span|iframe|noscript|svg|img|p|br)\b[^>]*>/i],
  ['placeholder', /\{\{\s*[\w$.]+\s*\}\}|\{%[^%]*%\}/],
  ['entity', /&(?:amp|nbsp|lt|gt|quot|#\d+);/],
  ['empty heading', /^#{1,6}\s*$/m],
  // A header row may be empty (GFM needs one where the page has none); a body row says nothing.
  ['empty table row', /^\|(?:\s*\|)+[ \t]*$(?!\n\|\s*---)/m],
];

/** The names of the defects a page's markdown shows. */
export function defectsOf(markdown: string): string[] {
  // An inline span stands for a word, so that a link or heading made of code is not read as empty.
  const prose = markdown.replace(FENCED, '').replace(INLINE_CODE, 'code');
  return DEFECTS.flatMap(([name, re]) => (re.test(prose) ? [name] : []));
}
