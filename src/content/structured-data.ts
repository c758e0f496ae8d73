/**
 * What a page's JSON-LD says about its main thing. Shops often render a product's description
 * in a tab or a script-filled panel that the saved HTML lacks or hides, while the JSON-LD they
 * publish for search engines carries it whole.
 */
import { wordsOf } from './words.ts';

const PRODUCT_TYPES = /^(?:Product|ProductGroup|IndividualProduct|ProductModel)$/;

function isProduct(node: Record<string, unknown>): boolean {
  const type = node['@type'];
  return (Array.isArray(type) ? type : [type]).some(
    (t) => typeof t === 'string' && PRODUCT_TYPES.test(t),
  );
}

/** Depth-first over a JSON-LD value: objects, arrays and `@graph` lists. */
function findProductDescription(value: unknown, depth = 0): string | undefined {
  if (depth > 8 || !value || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = findProductDescription(item, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  const node = value as Record<string, unknown>;
  if (isProduct(node) && typeof node.description === 'string' && node.description.trim())
    return node.description;
  return findProductDescription(node['@graph'], depth + 1);
}

/**
 * The description of the product the page's JSON-LD declares, as plain text (descriptions often
 * carry HTML), or undefined. Read before scripts are stripped.
 */
export function productDescription(doc: Document): string | undefined {
  for (const script of doc.querySelectorAll('script[type="application/ld+json"]')) {
    let data: unknown;
    try {
      data = JSON.parse(script.textContent ?? '');
    } catch {
      continue;
    }
    const found = findProductDescription(data);
    if (!found) continue;
    const holder = doc.createElement('div');
    holder.innerHTML = found;
    const text = (holder.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (text) return text;
  }
  return undefined;
}

/** Does `text` lack most of the description's words, so the description must be added? */
export function lacksDescription(text: string, description: string): boolean {
  const have = new Set(wordsOf(text));
  const want = wordsOf(description);
  return want.length > 0 && want.filter((w) => have.has(w)).length < 0.6 * want.length;
}
