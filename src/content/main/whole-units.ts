import type { BlockFacts } from './blocks.ts';

/** A block a reader takes for code: the classifier, reading prose's marks, scores it low. */
const isCode = (tag: string) => tag === 'PRE';

/** A card's or a post's title. */
const isHeading = (tag: string) => /^H[1-6]$/.test(tag);

/**
 * Keeps a stretch of cut blocks under one parent whose nearest blocks there, before and after it,
 * are both kept: one block of any kind, or code blocks however many. A short sample or formula
 * between two kept paragraphs is part of the text they frame, however little it looks like prose
 * on its own, and an article shows a sample in two languages as two `<pre>`s side by side. A
 * stretch of more blocks of text stays cut: a teaser or a signup box set between a story's
 * paragraphs is furniture.
 */
function keepFramed(
  blocks: readonly Pick<BlockFacts, 'tag'>[],
  parents: readonly number[],
  keep: boolean[],
): void {
  const siblings = Map.groupBy(parents.keys(), (i) => parents[i]!);
  const kept = [...keep];
  for (const run of siblings.values()) {
    let k = 1;
    while (k + 1 < run.length) {
      if (kept[run[k]!] || !kept[run[k - 1]!]) {
        k++;
        continue;
      }
      let end = k;
      while (end < run.length && !kept[run[end]!]) end++;
      const stretch = run.slice(k, end);
      const framed = end < run.length;
      if (framed && (stretch.length === 1 || stretch.every((i) => isCode(blocks[i]!.tag))))
        for (const i of stretch) keep[i] = true;
      k = end + 1;
    }
  }
}

/**
 * Keeps the title of a card or post whose words are mostly kept: the classifier judges a card's
 * name, description and price one by one and may cut the name alone, and a card without its name
 * tells a reader nothing. Only a title printed once on the page comes back: a line every card
 * carries ("Details") is the card's furniture.
 */
function keepItemTitles(
  blocks: readonly Pick<BlockFacts, 'tag' | 'item' | 'copies'>[],
  words: readonly number[],
  keep: boolean[],
): void {
  const items = new Map<number, { words: number; kept: number }>();
  blocks.forEach(({ item }, i) => {
    if (item < 0) return;
    const counts = items.get(item) ?? { words: 0, kept: 0 };
    counts.words += words[i]!;
    if (keep[i]) counts.kept += words[i]!;
    items.set(item, counts);
  });
  blocks.forEach(({ tag, item, copies }, i) => {
    if (keep[i] || item < 0 || !isHeading(tag) || copies > 1) return;
    const counts = items.get(item)!;
    if (counts.kept * 2 > counts.words) keep[i] = true;
  });
}

/**
 * Units the classifier judges block by block but a reader reads whole, made whole after the pick:
 * code framed by a story's kept paragraphs (`keepFramed`) and the title of a kept card
 * (`keepItemTitles`). `parents` are the ids of the blocks' parent elements.
 */
export function keepUnitsWhole(
  blocks: readonly Pick<BlockFacts, 'tag' | 'item' | 'copies'>[],
  parents: readonly number[],
  words: readonly number[],
  keep: boolean[],
): void {
  keepFramed(blocks, parents, keep);
  keepItemTitles(blocks, words, keep);
}
