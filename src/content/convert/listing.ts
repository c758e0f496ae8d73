/**
 * The repeated cards of a listing, collection or product-grid page as data: name, link, price,
 * picture and blurb per card. Cards are elements printed in one markup (the same kinds of element
 * over three levels, `Repeats.signature`) at least three times; of every such group the one whose
 * members read most like cards wins (a named link, with a picture, a price, a heading or a blurb
 * beside it). Menus, breadcrumbs, tag clouds and pagination are groups too, of bare links: they
 * never qualify. The whole page is read, whatever its main content keeps.
 */
import {
  absoluteUrl,
  documentBase,
  imageSources,
  NOT_SHOWN,
  parseHtml,
  wordCount,
} from '../dom/index.ts';
import { MIN_RUN, Repeats } from '../main/index.ts';
import { parsePrice, plainAmount, withoutPrices } from './price.ts';

export interface ListingItem {
  name: string;
  /** The card's link, absolute. */
  url: string;
  price?: number;
  /** ISO 4217, when the page names one currency (see price.ts). */
  currency?: string;
  /** The card's picture, absolute, its lazy or responsive source resolved. */
  image?: string;
  /** The card's own text beside its name: a teaser, a date line, a summary. */
  description?: string;
}

/** Caps on one page's listing; the content worker's deadline bounds its time. */
export const LISTING_LIMITS = {
  /** Cards returned at most (a page of 10,000 tiles answers with the first ones). */
  maxItems: 500,
  /** Characters of a name and of a description. */
  maxNameChars: 300,
  maxDescriptionChars: 500,
  /** Members of a group read to judge it, spread over the group. */
  sample: 24,
} as const;

/** Page chrome: repeated links there are menus and link lists, never the page's items. */
const CHROME = new Set(['nav', 'header', 'footer', 'aside', 'select', 'template']);
const CHROME_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'menu']);
/** Elements that are a card's parts, never a card. */
const NOT_CARD = new Set([
  'a',
  'p',
  'span',
  'b',
  'strong',
  'em',
  'i',
  'small',
  'img',
  'picture',
  'source',
  'svg',
  'br',
  'button',
  'input',
  'label',
  'option',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
]);
const HEADING = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** A struck-out price is the old one; the card's price is the other. */
const STRUCK = new Set(['del', 's', 'strike']);

const squash = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();
const cut = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max - 1)}…` : text;

function isChrome(el: Element): boolean {
  if (CHROME.has(el.localName)) return true;
  const role = el.getAttribute('role');
  return role !== null && CHROME_ROLES.has(role);
}

/** Text a reader sees under `node`, struck-out parts left out when `struck` is false, and `skip` left out. */
function textOf(node: Node, struck: boolean, skip?: Element): string {
  let text = '';
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 3) text += (child as Text).data;
    else if (child.nodeType === 1 && child !== skip) {
      const name = (child as Element).localName;
      if (NOT_SHOWN.has(child.nodeName) || (!struck && STRUCK.has(name))) continue;
      text += ` ${textOf(child, struck, skip)} `;
    }
  }
  return text;
}

/** The parts of one card, read in one walk of it. */
interface Parts {
  heading?: Element;
  itemName?: Element;
  links: Element[];
  images: Element[];
  priceEl?: Element;
  currencyEl?: Element;
  paragraphs: Element[];
}

function partsOf(card: Element): Parts {
  const parts: Parts = { links: [], images: [], paragraphs: [] };
  if (card.localName === 'a' && card.hasAttribute('href')) parts.links.push(card);
  for (const el of card.querySelectorAll('*')) {
    const name = el.localName;
    if (HEADING.has(name) || el.getAttribute('role') === 'heading') parts.heading ??= el;
    else if (name === 'a' && el.hasAttribute('href')) parts.links.push(el);
    else if (name === 'img') parts.images.push(el);
    else if (name === 'p') parts.paragraphs.push(el);
    const prop = el.getAttribute('itemprop');
    if (prop === 'name') parts.itemName ??= el;
    else if (prop === 'price') parts.priceEl ??= el;
    else if (prop === 'priceCurrency') parts.currencyEl ??= el;
    else if (prop === 'description') parts.paragraphs.unshift(el);
  }
  return parts;
}

/** A pixel, a spacer or an icon: declared at a few pixels wide or high. */
function tiny(img: Element): boolean {
  const w = Number(img.getAttribute('width'));
  const h = Number(img.getAttribute('height'));
  return (w > 0 && w < 24) || (h > 0 && h < 24);
}

/**
 * What a lazy-loading script shows until it swaps in the picture, when the page keeps the real
 * source nowhere the markup says (a script's own data): named for what it is, not for a product.
 */
const PLACEHOLDER =
  /(?:^|[-_/])(?:blank|empty|spacer|placeholder|loading|transparent|pixel|lazy)[\w-]*\.(?:gif|png|svg)$/i;

/** The card's first real picture, absolute. */
function pictureOf(images: Element[], base: string): string | undefined {
  for (const img of images) {
    if (tiny(img)) continue;
    const src = imageSources(img, base).find(
      (url) => !PLACEHOLDER.test(url.replace(/[?#].*$/s, '')),
    );
    if (src) return src;
  }
  return undefined;
}

function linkUrl(a: Element | null | undefined, base: string): string | undefined {
  const href = absoluteUrl(a?.getAttribute('href'), base);
  return href && /^https?:/i.test(href) ? href.replace(/#.*$/, '') : undefined;
}

function enclosingLink(el: Element, card: Element): Element | undefined {
  for (let up: Element | null = el; up && up !== card.parentElement; up = up.parentElement)
    if (up.localName === 'a' && up.hasAttribute('href')) return up;
  return undefined;
}

/** A card read, with what made it one. */
interface Card {
  item?: ListingItem;
  /** How much it reads like a card: 0 without a named link. */
  weight: number;
}

function readCard(card: Element, base: string): Card {
  const parts = partsOf(card);
  const heading = parts.heading ?? parts.itemName;
  const headingText = squash(heading && textOf(heading, true));
  // An empty heading (an icon's, a rating's) names nothing: the card is named by its link then.
  const named = headingText ? heading : undefined;
  const longest = parts.links.reduce<{ el?: Element; text: string }>(
    (best, a) => {
      const text = squash(textOf(a, true));
      return text.length > best.text.length ? { el: a, text } : best;
    },
    { text: '' },
  );
  const nameText =
    headingText ||
    longest.text ||
    squash(parts.images[0]?.getAttribute('alt')) ||
    squash(parts.links[0]?.getAttribute('title') ?? parts.links[0]?.getAttribute('aria-label'));
  const linkEl =
    (named && (enclosingLink(named, card) ?? named.querySelector('a[href]'))) ??
    longest.el ??
    parts.links[0];
  const url = linkUrl(linkEl, base) ?? parts.links.map((a) => linkUrl(a, base)).find(Boolean);
  if (!nameText || !url) return { weight: 0 };
  // A link's text often carries the price beside the name; a heading names the card alone.
  const name = cut(
    named ? nameText : withoutPrices(nameText) || nameText,
    LISTING_LIMITS.maxNameChars,
  );
  const item: ListingItem = { name, url };
  const price = priceOf(card, parts, named);
  if (price) {
    item.price = price.amount;
    if (price.currency) item.currency = price.currency;
  }
  const image = pictureOf(parts.images, base);
  if (image) item.image = image;
  const description = parts.paragraphs
    .map((p) => squash(textOf(p, false)))
    .find((t) => t !== nameText && wordCount(t) >= 3);
  if (description) item.description = cut(description, LISTING_LIMITS.maxDescriptionChars);
  const weight =
    1 + (price ? 1 : 0) + (image ? 0.5 : 0) + (parts.heading ? 0.5 : 0) + (description ? 0.25 : 0);
  return { item, weight };
}

/**
 * The card's price; an amount in its heading is the story's (`sells five hotels for $47 million`),
 * never the card's price, which a shop prints beside the name.
 */
function priceOf(card: Element, parts: Parts, heading?: Element): ReturnType<typeof parsePrice> {
  const declared = parts.priceEl;
  if (declared) {
    const amount =
      plainAmount(declared.getAttribute('content')) ?? parsePrice(textOf(declared, false))?.amount;
    const currency = squash(
      parts.currencyEl?.getAttribute('content') ?? parts.currencyEl?.textContent,
    );
    if (amount !== undefined)
      return /^[A-Z]{3}$/.test(currency)
        ? { amount, currency }
        : { ...parsePrice(textOf(card, false, heading)), amount };
  }
  return parsePrice(squash(textOf(card, false, heading)));
}

/** Every element that may be a card, outside page chrome, grouped by the markup it is printed in. */
function groups(body: Element): Element[][] {
  const repeats = new Repeats(() => 0);
  const bySignature = new Map<number, Element[]>();
  const walk = (el: Element) => {
    for (const child of el.children) {
      if (isChrome(child) || NOT_SHOWN.has(child.nodeName)) continue;
      if (!NOT_CARD.has(child.localName)) {
        const id = repeats.signature(child);
        const members = bySignature.get(id);
        if (members) members.push(child);
        else bySignature.set(id, [child]);
      }
      walk(child);
    }
  };
  walk(body);
  return [...bySignature.values()].filter(
    (members) => members.length >= MIN_RUN && !nested(members),
  );
}

/** Cards never hold one another: a group whose members nest is markup repeated down the tree (bare `div`s). */
function nested(members: Element[]): boolean {
  const set = new Set(members);
  return members.some((m) => {
    for (let up = m.parentElement; up; up = up.parentElement) if (set.has(up)) return true;
    return false;
  });
}

/** Members spread over the group, so a long group is judged by more than its opening. */
function sampleOf<T>(items: T[], size: number): T[] {
  if (items.length <= size) return items;
  const step = items.length / size;
  return Array.from({ length: size }, (_, i) => items[Math.floor(i * step)]!);
}

/** The share of a group's members that must be named links, and of those that must carry more than a link. */
const NAMED_SHARE = 0.6;
const CARD_SHARE = 0.5;

/** How much a group reads like a listing, 0 when it does not: its cards' weight, summed. */
function groupScore(members: Element[], base: string): number {
  const sample = sampleOf(members, LISTING_LIMITS.sample);
  const cards = sample.map((m) => readCard(m, base));
  const named = cards.filter((c) => c.weight > 0);
  if (named.length < NAMED_SHARE * sample.length) return 0;
  if (named.filter((c) => c.weight > 1).length < CARD_SHARE * named.length) return 0;
  // Menus of one link per entry repeat the same link text little; cards name distinct things.
  if (new Set(named.map((c) => c.item!.url)).size < MIN_RUN) return 0;
  const mean = named.reduce((sum, c) => sum + c.weight, 0) / sample.length;
  return mean * members.length;
}

/** The listing of a page: its cards in document order, at most `maxItems`; [] when it has none. */
export function extractListing(html: string, url: string): ListingItem[] {
  const doc = parseHtml(html);
  const body = doc.body ?? doc.documentElement;
  if (!body) return [];
  const base = documentBase(doc, url);
  let best: Element[] | undefined;
  let bestScore = 0;
  for (const members of groups(body)) {
    const score = groupScore(members, base);
    if (score > bestScore) {
      best = members;
      bestScore = score;
    }
  }
  const items: ListingItem[] = [];
  const seen = new Set<string>();
  for (const member of best ?? []) {
    const { item } = readCard(member, base);
    // Carousels print their cards twice (clones for the loop): one card, one entry.
    const key = item && `${item.url} ${item.name}`;
    if (!item || seen.has(key!)) continue;
    seen.add(key!);
    items.push(item);
    if (items.length >= LISTING_LIMITS.maxItems) break;
  }
  return items;
}
