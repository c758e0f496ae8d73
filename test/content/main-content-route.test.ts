import { describe, expect, it } from 'vitest';
import { parseHtml } from '../../src/content/dom/parse.ts';
import { convertHtml } from '../../src/content/index.ts';
import { selectMainContent } from '../../src/content/main/main-content.ts';
import { NEVER, type RoutePolicy } from '../../src/content/main/route.ts';
import { PAGE_TYPES } from '../fixtures/page-types.ts';
import { ESSAY, ESSAY_PARAGRAPHS, scoringHeadings } from './essay-classifier.ts';

/** A stand-in classifier that keeps subheadings only: a short pick, as when it misreads a page. */
const headingsOnly = (route: RoutePolicy) =>
  scoringHeadings({ heading: 1 - 1e-4, other: 1e-4 }, route);

/** The essay declares nothing, so the declared-article terms of the policy never apply. */
const UNDECLARED = { declaredWords: 1, declaredAgreement: 1, menuRatio: 0 };

const text = (route: RoutePolicy) =>
  selectMainContent(parseHtml(ESSAY), headingsOnly(route))?.textContent ?? '';

describe('main content when the classifier keeps a short pick', () => {
  it("gives way to Readability's pick when that has several times the words", () => {
    const t = text({ ...UNDECLARED, shortWords: 100, ratio: 3 });
    for (const n of ESSAY_PARAGRAPHS) expect(t).toContain(`KEEP-PARAGRAPH-${n}`);
  });

  it('keeps the short pick when the policy does not doubt it', () => {
    const t = text({ ...UNDECLARED, shortWords: 0, ratio: 3 });
    expect(t).toContain('What dredging costs');
    expect(t).not.toContain('KEEP-PARAGRAPH');
  });

  it("keeps the short pick when Readability's is not long enough to beat it", () => {
    expect(text({ ...UNDECLARED, shortWords: 100, ratio: 1000 })).not.toContain('KEEP-PARAGRAPH');
  });
});

/** The essay declared an article, with a sidebar of headings that Readability leaves out. */
const sidebar = [
  'Tidal almanac subscriptions',
  'Lighthouse keepers reunion',
  'Boatyard classifieds marketplace',
  'Regatta volunteer rota',
  'Fishing licence renewals',
];
const declared = (withSidebar: boolean) =>
  ESSAY.replace('<title>', '<meta property="og:type" content="article"><title>').replace(
    '</div></body>',
    `</div>${withSidebar ? `<aside class="sidebar">${sidebar.map((h) => `<h2>${h}</h2><ul><li><a href="/x">more</a></li></ul>`).join('')}</aside>` : ''}</body>`,
  );
const declaredText = (route: Partial<RoutePolicy>, withSidebar = false) =>
  selectMainContent(
    parseHtml(declared(withSidebar)),
    headingsOnly({
      shortWords: 0,
      ratio: 1,
      declaredWords: NEVER,
      declaredAgreement: NEVER,
      menuRatio: 0,
      ...route,
    }),
  )?.textContent ?? '';

describe('main content of a page that declares itself an article', () => {
  it("takes Readability's pick unread by the classifier when it is long enough", () => {
    expect(declaredText({ declaredWords: 50 })).toContain('KEEP-PARAGRAPH-12');
  });

  it("takes Readability's pick when it holds what the classifier kept", () => {
    expect(declaredText({ declaredAgreement: 0.6 })).toContain('KEEP-PARAGRAPH-12');
  });

  it("keeps the classifier's pick when Readability's leaves out most of it", () => {
    const t = declaredText({ declaredAgreement: 0.6 }, true);
    expect(t).toContain('Regatta volunteer rota');
    expect(t).not.toContain('KEEP-PARAGRAPH');
  });

  it("keeps the classifier's pick when the policy never routes declared articles", () => {
    expect(declaredText({})).not.toContain('KEEP-PARAGRAPH');
  });

  it('doubts a short pick there as on any page when the policy never routes declared articles', () => {
    // Readability is not read first then, so it must still be read once the pick is doubted.
    const t = declaredText({ shortWords: 100, ratio: 3 });
    for (const n of ESSAY_PARAGRAPHS) expect(t).toContain(`KEEP-PARAGRAPH-${n}`);
  });
});

describe("a product's JSON-LD description", () => {
  const markdown = (html: string) =>
    convertHtml({
      html,
      url: 'https://shop.example/p/kettle',
      format: 'markdown',
      onlyMainContent: true,
    }).content;

  it('is added under the title heading when the page does not show it', () => {
    const md = markdown(PAGE_TYPES.productJsonLd);
    expect(md).toMatch(
      /^# Harbour kettle, 1\.5 litre\n\nKEEP-LD-DESCRIPTION A steel kettle .* a & lid that opens wide for cleaning\.\n/,
    );
    expect(md).not.toContain('<p>');
    expect(md).not.toContain('DROP-ORGANISATION');
  });

  it('is added when the page also declares itself an article and Readability reads it', () => {
    const declared = PAGE_TYPES.productJsonLd.replace(
      '<head>',
      '<head><meta property="og:type" content="article">',
    );
    expect(declared).toContain('og:type');
    expect(markdown(declared)).toContain('KEEP-LD-DESCRIPTION A steel kettle');
  });

  it('is not added twice when the page shows it', () => {
    const shown = PAGE_TYPES.productJsonLd.replace(
      '<div id="description" class="tab-panel"></div>',
      '<div id="description" class="tab-panel"><p>KEEP-LD-DESCRIPTION A steel kettle that boils a litre and a half in four minutes, with a lid that opens wide for cleaning.</p></div>',
    );
    expect(markdown(shown).match(/KEEP-LD-DESCRIPTION/g)).toHaveLength(1);
  });
});
