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
  names: string;
  /** Microdata counts too. Not for articles: which pages go to Readability is fitted on og and JSON-LD. */
  microdata: boolean;
}

const KINDS: Record<keyof DeclaredTypes, Kind> = {
  article: { og: /article/i, names: '\\w*Article|BlogPosting|Report|Review', microdata: false },
  product: { og: /product/i, names: 'Product|ProductGroup|Offer', microdata: false },
  forum: {
    names: 'DiscussionForumPosting|QAPage|Question|SocialMediaPosting',
    microdata: true,
  },
  listing: { names: 'ItemList|CollectionPage|SearchResultsPage|OfferCatalog', microdata: true },
  service: { names: 'Service|ProfessionalService|LocalBusiness|\\w+Service', microdata: true },
};

export function declaredTypes(doc: Document): DeclaredTypes {
  let og = '';
  const ld: string[] = [];
  const itemtypes: string[] = [];
  // One walk of the tree for all three sources.
  for (const el of doc.querySelectorAll(
    'meta[property="og:type"], script[type="application/ld+json"], [itemtype]',
  )) {
    if (el.tagName === 'META') og ||= el.getAttribute('content') ?? '';
    else if (el.tagName === 'SCRIPT') ld.push(el.textContent ?? '');
    if (el.hasAttribute('itemtype')) itemtypes.push(el.getAttribute('itemtype')!.trim());
  }
  const read = (kind: Kind) => {
    if (kind.og?.test(og)) return true;
    const ldRe = LD_TYPE(kind.names);
    if (ld.some((t) => ldRe.test(t))) return true;
    const itemRe = ITEMTYPE(kind.names);
    return kind.microdata && itemtypes.some((t) => itemRe.test(t));
  };
  return {
    article: read(KINDS.article),
    product: read(KINDS.product),
    forum: read(KINDS.forum),
    listing: read(KINDS.listing),
    service: read(KINDS.service),
  };
}
