/**
 * The elements a page's base URL and metadata are read from (`documentBase`, `extractMetadata`):
 * its <base>, <title>, <meta>, <link> and <h1> elements, in document order. One walk of the tree
 * for every field read, where a query per field walked the whole page for each one it lacks.
 */
export function metadataTags(doc: Document): Element[] {
  return [...doc.querySelectorAll('base[href], title, meta, link[href], h1')];
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
