import { describe, expect, it } from 'vitest';
import { parseHtml } from '../../src/content/dom/parse.ts';

/** The texts of the body's elements, in order. */
const bodyTexts = (html: string) =>
  [...parseHtml(html).body.querySelectorAll('*')].map((el) => el.textContent);

describe('parseHtml reads malformed markup as browsers do', () => {
  it('ends a stray <![CDATA[ in HTML content at the next >', () => {
    expect(bodyTexts('<html><body><![CDATA[\n<div id="top"></div><p>one</p><p>two</p>')).toEqual([
      'one',
      'two',
    ]);
  });

  it('leaves <![CDATA[ inside script text, comments and SVG as it is', () => {
    const doc = parseHtml(
      '<html><body><script>//<![CDATA[\nvar big = 2 > 1;\n//]]></script><!-- <![CDATA[ x --><p>after</p>' +
        '<svg><style><![CDATA[ a > b ]]></style></svg><p>end</p></body></html>',
    );
    expect(doc.querySelector('script')?.textContent).toBe('//<![CDATA[\nvar big = 2 > 1;\n//]]>');
    expect([...doc.querySelectorAll('p')].map((p) => p.textContent)).toEqual(['after', 'end']);
    expect(doc.querySelector('svg style')?.textContent).toContain('a > b');
  });

  it('puts markup before <html> in the head or the body, not in place of the page', () => {
    const doc = parseHtml(
      '<style>.x{}</style><!DOCTYPE html><html lang="en"><head><title>T</title></head><body><p>page</p></body></html>',
    );
    expect(doc.title).toBe('T');
    expect(doc.head.querySelector('style')?.textContent).toBe('.x{}');
    expect(bodyTexts('<div>first</div><html><head></head><body><p>then</p></body></html>')).toEqual(
      ['first', 'then'],
    );
  });

  it('goes on where a stray </body></html> stood', () => {
    const doc = parseHtml(
      '<html><body><article><p>one</p></body></html><p>two</p></article><footer>three</footer></body></html>',
    );
    expect([...doc.querySelectorAll('article p')].map((p) => p.textContent)).toEqual([
      'one',
      'two',
    ]);
    expect(doc.body.lastElementChild?.textContent).toBe('three');
  });

  it('mends a page of many self-closed <svg/> icons in time linear in the page', () => {
    const icons = '<svg viewBox="0 0 1 1"/><p>item</p>'.repeat(40_000);
    const t0 = performance.now();
    const doc = parseHtml(
      `<html><body><![CDATA[ stray ><p>first</p>${icons}<p>last</p></body></html>`,
    );
    // Generous for a loaded machine; matching each <svg> to an end tag it never has took seconds.
    expect(performance.now() - t0).toBeLessThan(3_000);
    const texts = [...doc.querySelectorAll('p')].map((p) => p.textContent);
    expect(texts[0]).toBe('first');
    expect(texts.at(-1)).toBe('last');
    expect(texts).toHaveLength(40_002);
  });
});

describe('parseHtml places streamed parts where their script would', () => {
  const paragraphs = (doc: Document) =>
    [...doc.body.querySelectorAll('p')].map((p) => p.textContent);
  const texts = (html: string) => paragraphs(parseHtml(`<html><body>${html}</body></html>`));

  it('replaces a boundary fallback with its part, in place, nested boundaries included', () => {
    expect(
      texts(
        '<p>top</p><!--$?--><template id="B:0"></template><p>loading story</p><!--$--><p>inner fallback</p><!--/$--><!--/$-->' +
          '<p>footer</p>' +
          '<div hidden id="S:0"><p>story</p><!--$?--><template id="B:1"></template><p>loading comments</p><!--/$--></div>' +
          '<div hidden id="S:1"><p>comments</p></div>',
      ),
    ).toEqual(['top', 'story', 'comments', 'footer']);
  });

  it('fills a bare placeholder, and leaves a hidden part nothing points to hidden', () => {
    const doc = parseHtml(
      '<html><body><p>a</p><template id="P:2"></template><p>c</p><div hidden id="S:2"><p>b</p></div>' +
        '<div hidden id="S:7"><p>orphan</p></div></body></html>',
    );
    expect(paragraphs(doc)).toEqual(['a', 'b', 'c', 'orphan']);
    expect(doc.getElementById('S:7')?.hasAttribute('hidden')).toBe(true);
    expect(doc.querySelector('template')).toBeNull();
  });
});
