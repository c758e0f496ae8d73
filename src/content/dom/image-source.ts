/**
 * Where an image's picture really is: lazy-loading scripts keep it in an attribute of their own,
 * responsive markup in a srcset. Read by the conversion (which rewrites `src`) and by the listing
 * (which reports each card's picture).
 */
import { absoluteUrl } from './parse.ts';

/**
 * Attributes in which lazy-loading scripts keep an image's real source while `src` holds nothing
 * or a placeholder (a data: URI of a blank SVG or GIF), most common first over 1,657 real pages.
 */
const LAZY_SRC = ['data-src', 'data-lazy-src', 'nitro-lazy-src', 'lazy-src', 'data-original'];
const LAZY_SRC_NAMES = new Set(LAZY_SRC);
const LAZY_SRCSET = ['srcset', 'data-srcset', 'data-lazy-srcset', 'nitro-lazy-srcset'];

/** An attribute by name whatever its case: React prints `srcSet`, and linkedom keeps the case it read. */
function attribute(el: Element, name: string): string | null {
  for (const attr of el.attributes) if (attr.name.toLowerCase() === name) return attr.value;
  return null;
}

/** The widest candidate of a srcset (`url 640w, url 1280w` or `url 1x, url 2x`). */
function widestCandidate(srcset: string): string | undefined {
  let best: string | undefined;
  let bestSize = -1;
  for (const candidate of srcset.split(/,\s+/)) {
    const [url, descriptor = '1x'] = candidate.trim().split(/\s+/);
    const size = Number.parseFloat(descriptor) || 0;
    if (url && size > bestSize) {
      best = url;
      bestSize = size;
    }
  }
  return best;
}

/**
 * The real source of an image shown by a script: what a lazy-loading attribute holds, which the
 * script puts in `src` whatever `src` holds before (a data: URI, nothing, or a placeholder GIF
 * served from the site). Without this the markdown carried the placeholder and lost the picture.
 */
export function lazyAttributeSource(img: Element, base: string): string | undefined {
  // The attributes read once, not once a name: linkedom builds the list anew on every read, and
  // every image of every page is asked.
  const lazy = new Map<string, string>();
  for (const attr of img.attributes) {
    const name = attr.name.toLowerCase();
    if (LAZY_SRC_NAMES.has(name) && !lazy.has(name)) lazy.set(name, attr.value);
  }
  if (!lazy.size) return undefined;
  for (const name of LAZY_SRC) {
    const value = lazy.get(name);
    // A flag some scripts keep there (`data-src="false"`) is not a path.
    if (!value || !/[./]/.test(value)) continue;
    const abs = absoluteUrl(value, base);
    if (abs) return abs;
  }
  return undefined;
}

/** Else, when `src` holds no picture, the widest candidate of a srcset on it or on a `<source>` of its `<picture>`. */
export function srcsetSource(img: Element, base: string): string | undefined {
  const sets = LAZY_SRCSET.map((name) => attribute(img, name));
  const picture = img.parentElement?.tagName === 'PICTURE' ? img.parentElement : undefined;
  for (const source of picture?.querySelectorAll('source') ?? [])
    sets.push(...LAZY_SRCSET.map((name) => attribute(source, name)));
  for (const set of sets) {
    const abs = set ? absoluteUrl(widestCandidate(set), base) : undefined;
    if (abs) return abs;
  }
  return undefined;
}

/**
 * An image's picture as absolute http(s) URLs, likeliest first: the lazy source, `src`, the widest
 * srcset candidate. A reader that can tell a placeholder from a picture takes the first picture.
 */
export function imageSources(img: Element, base: string): string[] {
  const src = absoluteUrl(img.getAttribute('src'), base);
  return [lazyAttributeSource(img, base), src, srcsetSource(img, base)].filter(
    (url): url is string => url?.startsWith('http') === true,
  );
}
