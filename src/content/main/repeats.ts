/**
 * Repeated sibling structure: forum posts, listing cards, product tiles and table rows come as
 * runs of siblings sharing a tag and class. A block inside one such item (its paragraph, its
 * title, its price) is judged with the run it belongs to: how long the run is, how much of its
 * container's text the run holds, and an id shared by every block of the run so the classifier's
 * second stage can decide for the group rather than block by block. The same markup repeats
 * beyond one parent too (the paragraphs of every post of a thread): `signature` groups those.
 */

/** The tag and the distinct class names `name` makes of the element's, in order; most elements have none. */
function spelled(el: Element, name: (c: string) => string): string {
  const cls = el.getAttribute('class');
  if (!cls) return `${el.tagName} `;
  // One name, the commonest case after none: the same string without splitting and joining.
  if (!/\s/.test(cls)) return `${el.tagName} ${name(cls)}`;
  return `${el.tagName} ${[...new Set(cls.split(/\s+/).filter(Boolean).map(name))].join(' ')}`;
}

/** Tag and class names: siblings whose class lists differ only in spacing or a repeated name share a shape. */
const shapeOf = (el: Element) => spelled(el, (c) => c);

/** A shape with the digits of its class names left out: `post-1234` and `post-1235` are one kind of post. */
const kindOf = (el: Element) => spelled(el, (c) => c.replace(/\d+/g, ''));

/** How many elements, the block's own and those above it, a markup signature spells. */
const SIGNATURE_LEVELS = 3;

/** `make(el)`, made once per element and kept in `made`. */
function madeOnce(made: Map<Element, string>, el: Element, make: (el: Element) => string): string {
  let value = made.get(el);
  if (value === undefined) {
    value = make(el);
    made.set(el, value);
  }
  return value;
}

/** Siblings of one shape under one parent. */
interface Run {
  count: number;
  chars: number;
  id: number;
}

/** Shortest run that counts as repeated structure, and how far up from a block an item may sit. */
export const MIN_RUN = 3;
const MAX_LEVELS = 6;

export interface RepeatedItem {
  /** Items in the run; 0 when the block is in no run. */
  count: number;
  /** Share of the run's parent's text that the run holds. */
  share: number;
  /** Levels from the block up to its item, over MAX_LEVELS. */
  depth: number;
  /** Shared by the blocks of one run; -1 when none. */
  id: number;
  /** The item: the ancestor-or-self that is one of the run's siblings; null when none. */
  element: Element | null;
}

export class Repeats {
  private readonly runs = new Map<Element, Map<string, Run>>();
  /**
   * Each element's shape and kind, made once: a block's item is looked for up to MAX_LEVELS above
   * it, and its signature spells the elements above it, which the blocks around share.
   */
  private readonly shapes = new Map<Element, string>();
  private readonly kinds = new Map<Element, string>();
  private ids = 0;
  private readonly signatures = new Map<string, number>();
  private readonly chars: (el: Element) => number;

  /** `chars` is the text length under an element, 0 for elements holding no block. */
  constructor(chars: (el: Element) => number) {
    this.chars = chars;
  }

  private shape(el: Element): string {
    return madeOnce(this.shapes, el, shapeOf);
  }

  /** Counted once per parent, since long lists would make a count per child quadratic. */
  private runsOf(parent: Element): Map<string, Run> {
    let runs = this.runs.get(parent);
    if (!runs) {
      runs = new Map();
      // Siblings walked rather than `children`, an array linkedom builds on each read.
      for (let sib = parent.firstElementChild; sib; sib = sib.nextElementSibling) {
        const shape = this.shape(sib);
        const run = runs.get(shape) ?? { count: 0, chars: 0, id: -1 };
        run.count++;
        run.chars += this.chars(sib);
        runs.set(shape, run);
      }
      this.runs.set(parent, runs);
    }
    return runs;
  }

  /** How many siblings share the element's tag and class. */
  siblings(el: Element): number {
    const parent = el.parentElement;
    return parent ? (this.runsOf(parent).get(this.shape(el))?.count ?? 1) : 1;
  }

  /** The nearest ancestor-or-self of `el` that is one item of a run, described. */
  item(el: Element): RepeatedItem {
    let cur: Element | null = el;
    for (let level = 0; cur && level <= MAX_LEVELS; level++, cur = cur.parentElement) {
      const parent: Element | null = cur.parentElement;
      if (!parent) break;
      const run = this.runsOf(parent).get(this.shape(cur));
      if (!run || run.count < MIN_RUN || !run.chars) continue;
      if (run.id < 0) run.id = this.ids++;
      return {
        count: run.count,
        share: Math.min(1, run.chars / (this.chars(parent) || 1)),
        depth: level / MAX_LEVELS,
        id: run.id,
        element: cur,
      };
    }
    return { count: 0, share: 0, depth: 1, id: -1, element: null };
  }

  /**
   * An id shared by the elements printed in the same markup as `el` (the kinds of it and the
   * elements above it) wherever on the page they stand: a site prints every paragraph of its
   * posts, every card of its grids, every entry of its menus alike, and runs of siblings see only
   * those under one parent.
   */
  signature(el: Element): number {
    const kinds: string[] = [];
    let at: Element | null = el;
    for (let level = 0; at && level < SIGNATURE_LEVELS; level++, at = at.parentElement)
      kinds.push(madeOnce(this.kinds, at, kindOf));
    const key = kinds.join(' < ');
    let id = this.signatures.get(key);
    if (id === undefined) {
      id = this.signatures.size;
      this.signatures.set(key, id);
    }
    return id;
  }
}
