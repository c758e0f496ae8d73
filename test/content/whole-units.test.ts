import { describe, expect, it } from 'vitest';
import { parseHtml } from '../../src/content/dom/parse.ts';
import { collectBlocks } from '../../src/content/main/blocks.ts';
import { keepUnitsWhole } from '../../src/content/main/whole-units.ts';

/** Blocks of the given tags, none in a repeated item, each printed once. */
const plain = (tags: string[]) => tags.map((tag) => ({ tag, item: -1, copies: 1 }));

describe('units kept whole after the pick', () => {
  it('keeps a block framed by kept blocks under the same parent, and not one framed across parents or at an end', () => {
    const parents = [1, 1, 2, 1, 1, 3, 1];
    const keep = [true, false, true, true, false, true, false];
    keepUnitsWhole(plain(parents.map(() => 'P')), parents, [5, 5, 5, 5, 5, 5, 5], keep);
    expect(keep).toEqual([true, true, true, true, false, true, false]);
  });

  it('keeps a stretch of code blocks between kept paragraphs, and not a stretch of two paragraphs', () => {
    const tags = ['P', 'PRE', 'PRE', 'P', 'DIV', 'P', 'P'];
    const keep = [true, false, false, true, false, false, true];
    keepUnitsWhole(plain(tags), [1, 1, 1, 1, 1, 1, 1], [9, 4, 3, 9, 6, 6, 9], keep);
    expect(keep).toEqual([true, true, true, true, false, false, true]);
  });

  it('keeps code that is not framed on both sides cut', () => {
    const keep = [true, false, false];
    keepUnitsWhole(plain(['P', 'PRE', 'PRE']), [1, 1, 1], [9, 4, 4], keep);
    expect(keep).toEqual([true, false, false]);
  });

  it("keeps a card's title when the card's words are mostly kept, and not a title every card prints nor one of a card mostly cut", () => {
    const cards = Array.from(
      { length: 3 },
      (_, i) =>
        `<li class="card"><h3><a href="/c/${i}">Chair ${i}</a></h3><p>Teak frame, seats one, ships in ${i + 2} days.</p><h4>Details</h4><span class="price">$${100 + i}</span></li>`,
    ).join('');
    const doc = parseHtml(`<html><body><ul>${cards}</ul></body></html>`);
    const blocks = collectBlocks(doc.body);
    expect(new Set(blocks.map((b) => b.item)).size).toBe(3);
    const at = (text: string) => blocks.findIndex((b) => b.text === text);
    const keep = blocks.map((b) => b.tag === 'P' || (b.tag === 'LI' && !b.text.startsWith('$102')));
    keep[at('Teak frame, seats one, ships in 4 days.')] = false;
    keepUnitsWhole(
      blocks,
      blocks.map((b) => b.groups[0]!),
      blocks.map((b) => b.words),
      keep,
    );
    expect(keep[at('Chair 0')]).toBe(true);
    expect(keep[at('Chair 1')]).toBe(true);
    expect(keep[at('Chair 2')]).toBe(false);
    expect(blocks.flatMap((b, i) => (b.text === 'Details' && keep[i] ? [i] : []))).toEqual([]);
  });
});
