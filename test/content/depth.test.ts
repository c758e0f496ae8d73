import { afterAll, describe, expect, it } from 'vitest';
import { boundDepth, MAX_ELEMENT_DEPTH } from '../../src/content/dom/depth.ts';
import { parseHtml } from '../../src/content/dom/parse.ts';
import { ContentThreads, convertHtml } from '../../src/content/index.ts';

const nested = (n: number, inner = 'deep text') =>
  `<!doctype html><html><head><title>T</title></head><body><p>Intro.</p>${'<div>'.repeat(n)}${inner}${'</div>'.repeat(n)}<p>Tail.</p></body></html>`;

function maxDepth(doc: Document): number {
  let deepest = 0;
  const walk: Array<[Element, number]> = [[doc.documentElement, 1]];
  while (walk.length) {
    const [el, d] = walk.pop()!;
    deepest = Math.max(deepest, d);
    for (const child of el.children) walk.push([child, d + 1]);
  }
  return deepest;
}

describe('element depth bound', () => {
  it('leaves pages within the bound byte for byte as they were', () => {
    const html = `<html><body><ul><li>a<li>b</ul><p>x<br>y<img src=a.png><p>z<table><tr><td>1<td>2<tr><td>3</table>${'<section>'.repeat(100)}in${'</section>'.repeat(100)}<script>if (a<b) "<div>"</script><svg><path d="M0"/></svg></body></html>`;
    expect(boundDepth(html)).toBe(html);
    // Many unclosed list items and paragraphs are siblings, not a nesting.
    const flat = `<html><body><ul>${'<li>item'.repeat(2000)}</ul>${'<p>para'.repeat(2000)}</body></html>`;
    expect(boundDepth(flat)).toBe(flat);
  });

  it('flattens what is deeper than the bound into the element at the bound, keeping its text', () => {
    const doc = parseHtml(nested(2000));
    expect(maxDepth(doc)).toBeLessThanOrEqual(MAX_ELEMENT_DEPTH + 1);
    expect(doc.body.textContent).toBe('Intro.deep textTail.');
    expect(boundDepth('<html><body><div><div><b>x</b><i>y</i></div></div></body></html>', 3)).toBe(
      '<html><body><div>xy</div></body></html>',
    );
  });

  it('parses a page nested near the bound whole, as deep as it is written', () => {
    // Past the shallow depth the page is parsed again, bounded; within the bound nothing is cut.
    const doc = parseHtml(nested(MAX_ELEMENT_DEPTH - 10));
    expect(maxDepth(doc)).toBe(MAX_ELEMENT_DEPTH - 10 + 2);
    expect(doc.body.textContent).toBe('Intro.deep textTail.');
  });

  it('drops a script or style past the bound whole, so its code never becomes text', () => {
    expect(
      boundDepth(
        '<html><body><div><script>var a = "<p>";</script><style>p{}</style>text</div></body></html>',
        2,
      ),
    ).toBe('<html><body>text</body></html>');
  });

  it('bounds 100,000 nested elements in linear time', () => {
    const started = performance.now();
    const out = boundDepth(nested(100_000));
    expect(out.length).toBeLessThan(2_000);
    // Quadratic work here took about 25 s; linear takes well under a second.
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(
      convertHtml({
        html: nested(100_000),
        url: 'https://deep.example/',
        format: 'markdown',
        onlyMainContent: true,
      }).content,
    ).toContain('deep text');
  });
});

describe('conversion deadline', () => {
  const pool = new ContentThreads(1, 150, {
    concurrency: 1,
    pageTimeoutMs: 10_000,
    budgetMs: 10_000,
    maxPixels: 1_000_000,
  });
  afterAll(() => pool.close());

  it('ends a conversion past the deadline, and the worker serves the next page', async () => {
    const paragraph =
      '<p>A paragraph of ordinary prose, long enough to count as the main content, with commas, clauses.</p>';
    const huge = `<html><body><article>${paragraph.repeat(40_000)}</article></body></html>`;
    const started = performance.now();
    await expect(
      pool.convert(
        {
          html: huge,
          url: 'https://big.example/',
          format: 'markdown',
          onlyMainContent: true,
        },
        { key: 'test' },
      ),
    ).rejects.toThrow(/took longer than 150 ms/);
    expect(performance.now() - started).toBeLessThan(5_000);
    const small = await pool.convert(
      {
        html: `<html><body>${paragraph}</body></html>`,
        url: 'https://small.example/',
        format: 'markdown',
        onlyMainContent: false,
      },
      { key: 'test' },
    );
    expect(small.content).toContain('A paragraph of ordinary prose');
  });
});
