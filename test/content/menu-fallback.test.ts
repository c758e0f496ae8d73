import { describe, expect, it } from 'vitest';
import { parseHtml } from '../../src/content/dom/parse.ts';
import type { BlockModel } from '../../src/content/main/block-model.ts';
import { selectMainContent } from '../../src/content/main/main-content.ts';
import { MODEL_THRESHOLD_ONLY } from '../../src/content/main/page-threshold.ts';

/** A page that does not declare itself an article: a long site menu, then a short story. */
const links = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => `<li><a href="/section/${i}">Section name ${i}</a></li>`,
  ).join('');
const menu = links(500);
const story = [
  'The ferry timetable changes on Monday, the harbour office said, after weeks of complaints from commuters on the early crossing. KEEP-ONE',
  'Two extra sailings are added at dawn, and the last boat leaves half an hour later, so evening shifts at the port can catch it home. KEEP-TWO',
  'Fares stay as they are until spring, when the council reviews them, along with the plan for a second landing stage on the north shore. KEEP-THREE',
]
  .map((p) => `<p>${p}</p>`)
  .join('');
const PAGE = `<!doctype html><html><head><title>Ferry news</title></head><body><nav><ul>${menu}</ul></nav><div class="story">${story}</div></body></html>`;

/** A shop's category page: a line of introduction, then product cards whose every word is a link. */
const cards = Array.from(
  { length: 60 },
  (_, i) =>
    `<div class="card"><a href="/p/${i}"><h3>Stoneware mug number ${i} in speckled glaze</h3><span>Price 24 pounds</span></a></div>`,
).join('');
const SHOP = `<!doctype html><html><head><title>Mugs</title></head><body><h1>Mugs</h1><div class="intro"><p>Every mug here is thrown by hand, in our workshop by the river, and glazed in small batches, so no two are quite alike.</p><p>Orders leave within two days, packed in recycled paper, and a broken mug is replaced, free of charge, when you send us a photograph.</p></div><div class="grid">${cards}</div></body></html>`;

/** Stand-in classifiers: one keeps every block, one keeps none. */
const always = (bias: number, menuRatio = 0): BlockModel => ({
  stage1: { means: [], scales: [], weights: [], bias: 0, tokens: [] },
  stage2: { base: bias, trees: [] },
  threshold: 0.5,
  pageThreshold: MODEL_THRESHOLD_ONLY,
  route: { shortWords: 0, ratio: 1, declaredWords: 1, declaredAgreement: 1, menuRatio },
});

describe('main content when the classifier keeps a menu', () => {
  it('reads the page with Readability when what was kept is almost all link text', () => {
    const main = selectMainContent(parseHtml(PAGE), always(10));
    const text = main?.textContent ?? '';
    expect(main?.outerHTML).not.toContain('data-webdata-block');
    for (const m of ['KEEP-ONE', 'KEEP-TWO', 'KEEP-THREE']) expect(text).toContain(m);
    expect(text).not.toContain('Section name 42');
  });

  it('reads the page with Readability when the classifier keeps nothing', () => {
    const text = selectMainContent(parseHtml(PAGE), always(-10))?.textContent ?? '';
    expect(text).toContain('KEEP-TWO');
  });

  it('keeps what the classifier chose when it is not mostly links', () => {
    const page = PAGE.replace(menu, links(10));
    const text = selectMainContent(parseHtml(page), always(10))?.textContent ?? '';
    expect(text).toContain('Section name 3');
    expect(text).toContain('KEEP-ONE');
  });

  it("keeps a listing's link cards when Readability's pick is a small share of their words", () => {
    const read = (menuRatio: number) =>
      selectMainContent(parseHtml(SHOP), always(10, menuRatio))?.textContent ?? '';
    expect(read(0.1)).toContain('Stoneware mug number 59');
    expect(read(0.1)).toContain('Stoneware mug number 0 ');
    // The same pick gives way when the policy lets any Readability pick replace link text.
    expect(read(0)).not.toContain('Stoneware mug number 59');
  });

  it('still gives a menu up for a story with a share of its words above the ratio', () => {
    const text = selectMainContent(parseHtml(PAGE), always(10, 0.02))?.textContent ?? '';
    expect(text).toContain('KEEP-TWO');
    expect(text).not.toContain('Section name 42');
  });
});
