/**
 * What a page says it is, in its Open Graph type, its JSON-LD `@type`s and its microdata
 * `itemtype`s. Read before scripts are stripped. The block classifier weighs blocks differently
 * on a forum thread (keep every post), a listing (keep the items), a product or a service page.
 */

export interface DeclaredTypes {
  article: boolean;
  product: boolean;
  forum: boolean;
  listing: boolean;
  service: boolean;
}

const LD_TYPE = (names: string) => new RegExp(`"@type"\\s*:\\s*\\[?\\s*"(?:${names})"`);
const ITEMTYPE = (names: string) => new RegExp(`schema\\.org/(?:${names})$`);

interface Kind {
  og?: RegExp;
  /** A JSON-LD `@type` of the kind. */
  ld: RegExp;
  /** A microdata `itemtype` of the kind; absent for articles: which pages go to Readability is fitted on og and JSON-LD. */
  itemtype?: RegExp;
}

/** Compiled once: this is read on every page converted. */
const kind = (names: string, microdata: boolean, og?: RegExp): Kind => ({
  og,
  ld: LD_TYPE(names),
  itemtype: microdata ? ITEMTYPE(names) : undefined,
});

const KINDS: Record<keyof DeclaredTypes, Kind> = {
  article: kind('\\w*Article|BlogPosting|Report|Review', false, /article/i),
  product: kind('Product|ProductGroup|Offer', false, /product/i),
  forum: kind('DiscussionForumPosting|QAPage|Question|SocialMediaPosting', true),
  listing: kind('ItemList|CollectionPage|SearchResultsPage|OfferCatalog', true),
  service: kind('Service|ProfessionalService|LocalBusiness|\\w+Service', true),
};

const LD_JSON = 'application/ld+json';

/**
 * Is `el` one that `meta[property="og:type"], script[type="application/ld+json"], [itemtype]`
 * selects? A `type` is matched whatever its case, a `property` as written.
 */
function declares(el: Element): boolean {
  if (el.hasAttribute('itemtype')) return true;
  if (el.localName === 'meta') return el.getAttribute('property') === 'og:type';
  const type = el.localName === 'script' ? el.getAttribute('type') : null;
  return type !== null && type.length === LD_JSON.length && type.toLowerCase() === LD_JSON;
}

/**
 * What the page declares itself, read from its elements (`querySelectorAll('*')`, for a caller
 * that has them) in document order: one walk of the tree for all three sources.
 */
export function declaredTypes(
  doc: Document,
  elements: Iterable<Element> = doc.querySelectorAll('*'),
): DeclaredTypes {
  let og = '';
  const ld: string[] = [];
  const itemtypes: string[] = [];
  for (const el of elements) {
    if (!declares(el)) continue;
    if (el.tagName === 'META') og ||= el.getAttribute('content') ?? '';
    else if (el.tagName === 'SCRIPT') ld.push(el.textContent ?? '');
    if (el.hasAttribute('itemtype')) itemtypes.push(el.getAttribute('itemtype')!.trim());
  }
  const read = ({ og: ogRe, ld: ldRe, itemtype }: Kind) =>
    !!ogRe?.test(og) ||
    ld.some((t) => ldRe.test(t)) ||
    (!!itemtype && itemtypes.some((t) => itemtype.test(t)));
  return {
    article: read(KINDS.article),
    product: read(KINDS.product),
    forum: read(KINDS.forum),
    listing: read(KINDS.listing),
    service: read(KINDS.service),
  };
}
