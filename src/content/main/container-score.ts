/**
 * Where the article is likely to be, by Readability's measure, read from a page's blocks
 * (`blocks.ts`): a feature of each block is whether it sits in that container.
 */

/** What the score reads of a block. */
interface TextBlock {
  element: Element;
  text: string;
  linkChars: number;
}

const COMMA = /[,，、]/g;

/**
 * Readability's container score, computed from the blocks already in hand rather than by
 * another pass over the tree: each block of 25+ characters gives its ancestors points for its
 * commas and length (all to the parent, half to the grandparent, a third per level above), each
 * container's points are discounted by its link density, and the best container is the likely
 * article. Per block: whether it sits in that container, and how its best container compares.
 */
export function containerScores(blocks: readonly TextBlock[]): {
  inTop: number[];
  ratio: number[];
  topShare: number;
  chars: Map<Element, number>;
} {
  const points = new Map<Element, number>();
  const chars = new Map<Element, number>();
  const links = new Map<Element, number>();
  const chains = blocks.map((block) => {
    const chain: Element[] = [];
    const len = block.text.length;
    const gain =
      len >= 25
        ? 1 + (block.text.match(COMMA)?.length ?? 0) + Math.min(3, Math.floor(len / 100))
        : 0;
    for (
      let el: Element | null = block.element, level = 0;
      el && level < 60;
      el = el.parentElement, level++
    ) {
      chain.push(el);
      chars.set(el, (chars.get(el) ?? 0) + len);
      links.set(el, (links.get(el) ?? 0) + block.linkChars);
      if (gain && level >= 1 && level <= 5)
        points.set(
          el,
          (points.get(el) ?? 0) + gain / (level === 1 ? 1 : level === 2 ? 2 : (level - 1) * 3),
        );
    }
    return chain;
  });
  const final = (el: Element) =>
    (points.get(el) ?? 0) * (1 - (links.get(el) ?? 0) / (chars.get(el) || 1));
  let top: Element | undefined;
  let topScore = 0;
  for (const el of points.keys()) {
    const f = final(el);
    if (f > topScore) {
      topScore = f;
      top = el;
    }
  }
  const total = blocks.reduce((a, b) => a + b.text.length, 0) || 1;
  return {
    inTop: chains.map((chain) => (top && chain.includes(top) ? 1 : 0)),
    ratio: chains.map((chain) =>
      topScore ? Math.max(0, ...chain.slice(1, 6).map(final)) / topScore : 0,
    ),
    topShare: top ? (chars.get(top) ?? 0) / total : 0,
    chars,
  };
}
