/**
 * What a page's JSON-LD says about its main thing. Shops often render a product's description
 * and specifications in a tab or a script-filled panel that the saved HTML lacks or hides, while
 * the JSON-LD they publish for search engines carries them whole.
 */
import { wordsOf } from '../dom/index.ts';

const PRODUCT_TYPES = /^(?:Product|ProductGroup|IndividualProduct|ProductModel)$/;

function isProduct(node: Record<string, unknown>): boolean {
  const type = node['@type'];
  return (Array.isArray(type) ? type : [type]).some(
    (t) => typeof t === 'string' && PRODUCT_TYPES.test(t),
  );
}

/** Depth-first over a JSON-LD value (objects, arrays and `@graph` lists): the first product node `pick` reads something from. */
function findInProduct<T>(
  value: unknown,
  pick: (node: Record<string, unknown>) => T | undefined,
  depth = 0,
): T | undefined {
  if (depth > 8 || !value || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = findInProduct(item, pick, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  const node = value as Record<string, unknown>;
  const found = isProduct(node) ? pick(node) : undefined;
  return found !== undefined ? found : findInProduct(node['@graph'], pick, depth + 1);
}

/** Every JSON-LD script of the page, parsed once; scripts that are not JSON are skipped. */
function jsonLd(doc: Document): unknown[] {
  const data: unknown[] = [];
  for (const script of doc.querySelectorAll('script[type="application/ld+json"]')) {
    try {
      data.push(JSON.parse(script.textContent ?? ''));
    } catch {
      // Not JSON: publishers' broken JSON-LD says nothing we can read.
    }
  }
  return data;
}

/** The first product node of the parsed JSON-LD that `pick` reads something from. */
function fromProducts<T>(
  data: unknown[],
  pick: (node: Record<string, unknown>) => T | undefined,
): T | undefined {
  for (const value of data) {
    const found = findInProduct(value, pick);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Plain text of a JSON-LD string, which often carries HTML. */
function plain(doc: Document, html: string): string {
  const holder = doc.createElement('div');
  holder.innerHTML = html;
  return (holder.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/**
 * The description of the product the page's JSON-LD declares, as plain text, or undefined.
 * Read before scripts are stripped.
 */
function productDescription(doc: Document, data: unknown[]): string | undefined {
  return fromProducts(data, (node) =>
    typeof node.description === 'string' ? plain(doc, node.description) || undefined : undefined,
  );
}

const scalar = (v: unknown): string | undefined =>
  typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;

/**
 * The product's specifications from its JSON-LD `additionalProperty` list, as "name: value"
 * lines (a value with its unit), or undefined when it has none.
 */
function productSpecs(doc: Document, data: unknown[]): string[] | undefined {
  return fromProducts(data, (node) => {
    const props = node.additionalProperty;
    const lines = (Array.isArray(props) ? props : [props]).flatMap((p) => {
      if (!p || typeof p !== 'object') return [];
      const prop = p as Record<string, unknown>;
      const name = scalar(prop.name);
      const value = scalar(prop.value);
      if (!name || !value) return [];
      const unit = scalar(prop.unitText);
      return [plain(doc, `${name}: ${value}${unit ? ` ${unit}` : ''}`)];
    });
    return lines.length ? lines : undefined;
  });
}

/** What the JSON-LD of a page declaring a product says that its markup may lack. */
export interface ProductFacts {
  description?: string;
  specs?: string[];
}

export function productFacts(doc: Document): ProductFacts {
  const data = jsonLd(doc);
  return { description: productDescription(doc, data), specs: productSpecs(doc, data) };
}

/** Does `text` lack most of the words of `wanted` (a description, the specs), so it must be added? */
function lacksMostWords(text: string, wanted: string): boolean {
  const have = new Set(wordsOf(text));
  const want = wordsOf(wanted);
  return want.length > 0 && want.filter((w) => have.has(w)).length < 0.6 * want.length;
}

/** The facts `text` lacks, as the lines a reader would get: the description, then the specs. */
export function missingFacts(text: string, facts: ProductFacts): ProductFacts {
  return {
    description:
      facts.description && lacksMostWords(text, facts.description) ? facts.description : undefined,
    specs: facts.specs && lacksMostWords(text, facts.specs.join('\n')) ? facts.specs : undefined,
  };
}
