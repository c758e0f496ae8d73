import { describe, expect, it } from 'vitest';
import { parseHtml } from '../../src/content/dom/parse.ts';
import { collectBlocks } from '../../src/content/main/blocks.ts';
import { Repeats } from '../../src/content/main/repeats.ts';

const textLength = (el: Element) => (el.textContent ?? '').trim().length;

const LISTING = `<main><h1>Chairs</h1><p>One intro line.</p><ul class="grid">${Array.from(
  { length: 5 },
  (_, i) =>
    `<li class="card"><h3><a href="/c/${i}">Chair ${i}</a></h3><p>Teak, seats one.</p></li>`,
).join('')}</ul></main>`;

describe('Repeats', () => {
  it("finds a card's run from a block inside the card, with the run's share of its container", () => {
    const doc = parseHtml(`<html><body>${LISTING}</body></html>`);
    const repeats = new Repeats(textLength);
    const [first, second] = [...doc.querySelectorAll('li.card p')];
    const a = repeats.item(first!);
    expect(a.count).toBe(5);
    expect(a.share).toBe(1);
    expect(a.depth).toBeGreaterThan(0);
    expect(repeats.item(second!).id).toBe(a.id);
    expect(repeats.siblings(doc.querySelector('li.card')!)).toBe(5);
  });

  it('leaves a block outside any run of three or more without one', () => {
    const doc = parseHtml(
      `<html><body><div><h1>Title</h1><p>Only paragraph.</p></div></body></html>`,
    );
    expect(new Repeats(textLength).item(doc.querySelector('p')!)).toMatchObject({
      count: 0,
      id: -1,
    });
  });

  it("gives every block of a listing's cards one group for the classifier's second stage", () => {
    const doc = parseHtml(`<html><body>${LISTING}</body></html>`);
    const blocks = collectBlocks(doc.body);
    const cardGroups = new Set(
      blocks.filter((b) => b.element.closest('li.card')).map((b) => b.groups[3]),
    );
    expect(cardGroups.size).toBe(1);
    expect([...cardGroups][0]).toBeGreaterThanOrEqual(0);
    expect(blocks.find((b) => b.element.tagName === 'H1')!.groups[3]).toBe(-1);
  });

  it('counts siblings whose class lists differ only in spacing or a repeated name as one run', () => {
    const classes = ['card', ' card', 'card  ', 'card card'];
    const doc = parseHtml(
      `<html><body><ul>${classes.map((c) => `<li class="${c}"><p>Teak, seats one.</p></li>`).join('')}<li class="card wide"><p>Oak.</p></li></ul></body></html>`,
    );
    const repeats = new Repeats(textLength);
    const items = [...doc.querySelectorAll('li')];
    expect(items.slice(0, 4).map((li) => repeats.siblings(li))).toEqual([4, 4, 4, 4]);
    expect(repeats.siblings(items[4]!)).toBe(1);
  });

  it('gives the blocks printed in the same markup one signature wherever they stand, digits of class names aside', () => {
    const post = (n: number) =>
      `<section class="page-${n}"><div class="post post-${n}"><div class="body"><p>Post ${n} says a thing.</p><p>And another.</p></div></div></section>`;
    const doc = parseHtml(
      `<html><body><main>${post(1)}<aside>${post(2)}</aside></main><footer><div class="body"><p>Footer line.</p></div></footer></body></html>`,
    );
    const blocks = collectBlocks(doc.body);
    const signatureOf = (text: string) => blocks.find((b) => b.text.startsWith(text))!.groups[4];
    expect(blocks.map((b) => b.groups[3])).toEqual(blocks.map(() => -1));
    expect(signatureOf('Post 1')).toBe(signatureOf('Post 2'));
    expect(signatureOf('Post 1')).toBe(signatureOf('And another'));
    expect(signatureOf('Footer line')).not.toBe(signatureOf('Post 1'));
  });
});

describe("a line's copies", () => {
  it('tells the classifier how many blocks print the same text and which copy each block is', () => {
    const blocks = collectBlocks(parseHtml(`<html><body>${LISTING}</body></html>`).body);
    const copies = blocks.filter((b) => b.text === 'Teak, seats one.');
    expect(copies).toHaveLength(5);
    for (const [i, b] of copies.entries()) {
      expect(b.own.at(-2)).toBeCloseTo(Math.log1p(4));
      expect(b.own.at(-1)).toBeCloseTo(i / 10);
    }
    const intro = blocks.find((b) => b.text === 'One intro line.')!;
    expect(intro.own.slice(-2)).toEqual([0, 0]);
  });
});
