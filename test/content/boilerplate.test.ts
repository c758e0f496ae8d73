import { describe, expect, it } from 'vitest';
import { parseHtml } from '../../src/content/dom/parse.ts';
import { stripBoilerplate } from '../../src/content/main/boilerplate.ts';

const long = (topic: string) =>
  `<p>${topic} runs on for a while, as prose does, with clauses and commas and more words than any menu.</p>`;

/** The body's text after the boilerplate pass, words squeezed. */
function stripped(body: string): string {
  const doc = parseHtml(`<html><body>${body}</body></html>`);
  stripBoilerplate(doc);
  return (doc.body.textContent ?? '').replace(/\s+/g, ' ').trim();
}

describe('stripBoilerplate', () => {
  it('keeps hidden or furniture-named markup that holds most of the page', () => {
    expect(stripped(`<div style="visibility:hidden">${long('Story')}</div><p>Menu</p>`)).toContain(
      'Story runs on',
    );
    expect(stripped(`<div class="social">${long('Story')}</div><p>Menu</p>`)).toContain(
      'Story runs on',
    );
  });

  it('removes hidden and furniture markup that holds less, and dialogs whatever they hold', () => {
    const text = stripped(
      `<div hidden><p>Hidden menu</p></div><div class="share"><a href="/s">Share this</a></div>` +
        `<div role="dialog">${long('Dialog')}${long('Dialog')}</div>${long('Story')}`,
    );
    expect(text).toContain('Story runs on');
    expect(text).not.toContain('Hidden menu');
    expect(text).not.toContain('Share this');
    expect(text).not.toContain('Dialog');
  });

  it("keeps a heading's toggle as the heading's words, and removes every other button", () => {
    const text = stripped(
      `<h3><button aria-expanded="false">Can I pay by card?</button></h3>${long('Answer')}` +
        `<button><h4>Delivery times</h4></button><button>Add to basket</button>`,
    );
    expect(text).toContain('Can I pay by card?');
    expect(text).toContain('Delivery times');
    expect(text).not.toContain('Add to basket');
  });

  it('keeps a closed tab or accordion panel, and removes hidden markup nothing opens', () => {
    const text = stripped(
      `<div role="tablist"><span role="tab" aria-controls="p-go">Go</span></div>` +
        `<div role="tabpanel" id="p-py" hidden>Python sample</div><div id="p-go" style="display:none">Go sample</div>` +
        `<button aria-controls="more">More</button><div id="more" aria-hidden="true">The rest of the answer</div>` +
        `<div id="drawer" hidden>Slide-out basket</div>${long('Story')}`,
    );
    expect(text).toContain('Python sample');
    expect(text).toContain('Go sample');
    expect(text).toContain('The rest of the answer');
    expect(text).not.toContain('Slide-out basket');
  });

  it('counts only text a reader sees when it weighs a share of the page', () => {
    const script = `<script>${'var state = "serialised page data";'.repeat(50)}</script>`;
    expect(
      stripped(`${script}<div aria-hidden="true">${long('Story')}</div><p>Menu</p>`),
    ).toContain('Story runs on');
  });
});
