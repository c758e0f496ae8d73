/**
 * Anything a model could read as a `page` tag, opening or closing: any case, whitespace or
 * invisible characters (zero-width, soft hyphen, NUL) between the parts, attributes or not.
 * Matching the start of the tag is enough: without its `<` it cannot open or close a block.
 */
const GAP = '[\\s\\u0000\\u00ad\\u200b-\\u200f\\u2060\\ufeff]*';
const PAGE_TAG = new RegExp(`<(?=${GAP}(?:/${GAP})?${[...'page'].join(GAP)}(?![\\w-]))`, 'giu');

/**
 * Page text inside `<page ...>` and `</page>` delimiters, with every spelling of either tag in
 * the text neutralised (its `<` written as `&lt;`), so the page cannot close its block early and
 * speak outside it, or open a block of its own. `attributes` is written in the opening tag as is.
 */
export function pageBlock(text: string, attributes = ''): string {
  const open = attributes ? `<page ${attributes}>` : '<page>';
  return `${open}\n${text.replace(PAGE_TAG, '&lt;')}\n</page>`;
}
