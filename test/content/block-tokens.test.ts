import { describe, expect, it } from 'vitest';
import { parseHtml } from '../../src/content/dom/parse.ts';
import { BlockTokens, TOKEN_BUCKETS } from '../../src/content/main/block-tokens.ts';
import { collectBlocks } from '../../src/content/main/blocks.ts';

/** The blocks of a page, by their text. */
function blocksOf(body: string) {
  const doc = parseHtml(`<html><body>${body}</body></html>`);
  return new Map(collectBlocks(doc.body).map((b) => [b.text, b.tokens]));
}

const PROSE =
  'A reply long enough to be prose, with more than twelve words in it, so its own words are not read as a label.';

describe('the words of a block', () => {
  it('gives the same words to blocks named alike on two sites, and different words to other names', () => {
    // The same parts under a different page around them (beyond the four levels read), classes in another order.
    const a = blocksOf(
      `<main><div class="topic-body crawler-post"><div class="post"><p>${PROSE}</p></div></div></main>`,
    );
    const b = blocksOf(
      `<section id="thread"><main><div class="crawler-post topic-body"><div class="post"><p>${PROSE}</p></div></div></main></section>`,
    );
    const c = blocksOf(
      `<main><div class="site-footer"><div class="legal"><p>${PROSE}</p></div></div></main>`,
    );
    const [ta, tb, tc] = [a, b, c].map((m) => new Set(m.get(PROSE))) as [
      Set<number>,
      Set<number>,
      Set<number>,
    ];
    expect(tb).toEqual(ta);
    expect([...ta].filter((t) => tc.has(t)).length).toBeLessThan(ta.size / 2);
    for (const t of [...ta, ...tc]) expect(t).toBeGreaterThanOrEqual(0);
    for (const t of [...ta, ...tc]) expect(t).toBeLessThan(TOKEN_BUCKETS);
  });

  it("reads a short block's own words and not a long one's", () => {
    const page = blocksOf(`<div class="post"><p>${PROSE}</p><p>Reply</p><p>Quote</p></div>`);
    const reply = new Set(page.get('Reply'));
    const quote = new Set(page.get('Quote'));
    // The two labels share their markup's words and differ by their own.
    expect([...reply].filter((t) => !quote.has(t))).toHaveLength(1);
    const prose = new Set(page.get(PROSE));
    expect([...prose].every((t) => reply.has(t))).toBe(true);
    expect(prose.size).toBe(reply.size - 1);
  });

  it('leaves out generated names, so a post numbered 48213 reads as any other post', () => {
    const tokens = new BlockTokens();
    const doc = parseHtml(
      `<html><body><div class="post post-48213"><p>One</p></div><div class="post post-907"><p>One</p></div></body></html>`,
    );
    const [first, second] = [...doc.querySelectorAll('p')];
    expect(tokens.of(first!, 'One')).toEqual(tokens.of(second!, 'One'));
  });

  it('tells the names on the block and its parent from those further up', () => {
    const near = blocksOf(`<div><div><div class="comments"><p>${PROSE}</p></div></div></div>`).get(
      PROSE,
    )!;
    const far = blocksOf(`<div class="comments"><div><div><p>${PROSE}</p></div></div></div>`).get(
      PROSE,
    )!;
    expect(new Set(near)).not.toEqual(new Set(far));
  });
});
