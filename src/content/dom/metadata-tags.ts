/**
 * The elements a page's base URL and metadata are read from (`documentBase`, `extractMetadata`):
 * of its elements (`querySelectorAll('*')`), its <base> and <link> with an href, <title>, <meta>
 * and <h1>, in document order. One walk of the tree for every field read, where a query per field
 * walked the whole page for each one it lacks.
 */
export function metadataTags(elements: Iterable<Element>): Element[] {
  const tags: Element[] = [];
  for (const el of elements) {
    const name = el.localName;
    if (
      name === 'title' ||
      name === 'meta' ||
      name === 'h1' ||
      ((name === 'base' || name === 'link') && el.hasAttribute('href'))
    )
      tags.push(el);
  }
  return tags;
}

/** The first of `tags` that is a `name` element (a selector's `name`: its local name). */
export const firstTag = (tags: readonly Element[], name: string): Element | undefined =>
  tags.find((el) => el.localName === name);

/**
 * The first <meta> whose `attribute` is `value`, as `meta[attribute="value"]` selects it: `name`
 * and `property` are matched as written, case and all.
 */
export const firstMeta = (
  tags: readonly Element[],
  attribute: 'name' | 'property',
  value: string,
): Element | undefined =>
  tags.find((el) => el.localName === 'meta' && el.getAttribute(attribute) === value);
