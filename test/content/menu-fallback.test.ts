import { describe, expect, it } from 'vitest';
import type { BlockModel } from '../../src/content/block-model.ts';
import { selectMainContent } from '../../src/content/main-content.ts';
import { parseHtml } from '../../src/content/parse.ts';

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

/** Stand-in classifiers: one keeps every block, one keeps none. */
const always = (bias: number): BlockModel => ({
  stage1: { means: [], scales: [], weights: [], bias: 0 },
  stage2: { base: bias, trees: [] },
  threshold: 0.5,
  route: { shortWords: 0, ratio: 1, declaredWords: 1, declaredAgreement: 1 },
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
});
