import { describe, expect, it } from 'vitest';
import {
  FORUM_CITING_REPLIES,
  FORUM_NOSCRIPT_COPY,
  FORUM_QUOTING_REPLIES,
  FORUM_TITLE_TWICE,
  markers,
  PAGE_TYPES,
  PRODUCT_RESPONSIVE_COPIES,
} from '../fixtures/page-types.ts';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { useServer } from '../helpers/server.ts';

const routes = Object.fromEntries(
  Object.entries({
    ...PAGE_TYPES,
    forumTitleTwice: FORUM_TITLE_TWICE,
    forumNoscriptCopy: FORUM_NOSCRIPT_COPY,
    forumCitingReplies: FORUM_CITING_REPLIES,
    forumQuotingReplies: FORUM_QUOTING_REPLIES,
    productResponsiveCopies: PRODUCT_RESPONSIVE_COPIES,
  }).map(([type, html]) => [
    `/types/${type}.html`,
    (_req: unknown, res: import('node:http').ServerResponse) =>
      void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html),
  ]),
);
const site = useFixture(() => startFixtureSite(routes));
const t = useServer();
/** The markdown a scrape answers for the page-type fixture `type`. */
const markdownOf = async (type: string): Promise<string> =>
  (await t.api('POST', '/api/v1/scrape/single', { url: `${site.origin}/types/${type}.html` })).json
    .markdown;

describe('POST /v1/scrape/single main content by page type', () => {
  for (const [type, html] of Object.entries(PAGE_TYPES)) {
    it(`returns the ${type} page's content without its furniture`, async () => {
      const { status, json } = await t.api('POST', '/api/v1/scrape/single', {
        url: `${site.origin}/types/${type}.html`,
      });
      expect(status).toBe(200);
      const { keep, drop } = markers(html);
      for (const m of keep) expect(json.markdown, m).toContain(m);
      for (const m of drop) expect(json.markdown, m).not.toContain(m);
    });
  }

  it("returns an article's title heading once, on top", async () => {
    const markdown = await markdownOf('article');
    expect(markdown.startsWith('# Harbour bridge reopens after repairs\n')).toBe(true);
    expect(markdown.match(/Harbour bridge reopens after repairs/g)).toHaveLength(1);
  });

  it('returns a title printed twice (a bar above the thread, then the thread) once', async () => {
    const markdown = await markdownOf('forumTitleTwice');
    expect(markdown.match(/Sourdough starter smells of acetone/g)).toHaveLength(1);
    for (const m of markers(FORUM_TITLE_TWICE).keep) expect(markdown, m).toContain(m);
  });

  it('returns the thread a script-driven forum prints in <noscript>, on the whole page and as main content', async () => {
    const { keep, drop } = markers(FORUM_NOSCRIPT_COPY);
    for (const onlyMainContent of [false, true]) {
      const { status, json } = await t.api('POST', '/api/v1/scrape/single', {
        url: `${site.origin}/types/forumNoscriptCopy.html`,
        onlyMainContent,
      });
      expect(status).toBe(200);
      for (const m of keep)
        expect(json.markdown, `${m}, onlyMainContent ${onlyMainContent}`).toContain(m);
      for (const m of drop) expect(json.markdown, m).not.toContain(m);
    }
  });

  it("returns a thread without a reply's quote of a post it already holds", async () => {
    const markdown = await markdownOf('forumQuotingReplies');
    expect(markdown.split('KEEP-QUOTED-POST')).toHaveLength(2);
    for (const m of markers(FORUM_QUOTING_REPLIES).keep) expect(markdown, m).toContain(m);
  });

  it("returns a thread without a reply's preview or boxed quote of a post it already holds", async () => {
    const { status, json } = await t.api('POST', '/api/v1/scrape/single', {
      url: `${site.origin}/types/forumCitingReplies.html`,
    });
    expect(status).toBe(200);
    expect(json.markdown.split('KEEP-CITED-POST')).toHaveLength(2);
    for (const m of markers(FORUM_CITING_REPLIES).keep) expect(json.markdown, m).toContain(m);
  });

  it('returns a description printed for phones and again for desktops once', async () => {
    const markdown = await markdownOf('productResponsiveCopies');
    expect(markdown.split('KEEP-RESPONSIVE-DESCRIPTION')).toHaveLength(2);
    expect(markdown).toContain('# Harbour tent, two person');
  });

  it("returns a product's JSON-LD description under its title when the page does not show it", async () => {
    const markdown = await markdownOf('productJsonLd');
    expect(markdown).toMatch(/^# Harbour kettle, 1\.5 litre\n\nKEEP-LD-DESCRIPTION A steel kettle/);
    expect(markdown.match(/KEEP-LD-DESCRIPTION/g)).toHaveLength(1);
  });

  it("returns an accordion's questions as the headings they sit in and its closed answers, without the page's other buttons", async () => {
    const markdown = await markdownOf('serviceFaq');
    expect(markdown).toMatch(
      /### KEEP-QUESTION-ONE How often should windows be cleaned\?\n\nKEEP-ANSWER-ONE Twice a year/,
    );
    expect(markdown).toMatch(
      /### KEEP-QUESTION-TWO Do you clean the frames as well\?\n\nKEEP-ANSWER-TWO Frames and sills/,
    );
    expect(markdown).not.toContain('DROP-CONTROL');
  });

  it("keeps an identifier in a doc page's prose whole, its underscore unescaped", async () => {
    const markdown = await markdownOf('doc');
    expect(markdown).toContain('KEEP-DOC-TWO Eviction past max_size is explained');
    expect(markdown).not.toContain('max\\_size');
  });

  it("returns a doc page's headings without their permalinks, its footnotes without their way back, its emphasis as CommonMark reads it", async () => {
    const { status, json } = await t.api('POST', '/api/v1/scrape/single', {
      url: `${site.origin}/types/docPermalinks.html`,
    });
    expect(status).toBe(200);
    expect(json.markdown.startsWith('# Rotating the logs\n')).toBe(true);
    expect(json.markdown).toContain('\n## When to rotate\n');
    expect(json.markdown).toContain('Rotate the logs daily[1](#fn1), and keep a week');
    expect(json.markdown).toMatch(/as most small services do\.$/);
    for (const glyph of [
      '¶',
      '\uf0c1',
      '↩',
      '](#rotating-the-logs',
      '](#when-to-rotate',
      '](#ref1',
    ])
      expect(json.markdown, glyph).not.toContain(glyph);
    expect(json.markdown).toContain(
      '\n**Tip:** compress the rotated files with **gzip**, since the **compressed** files take',
    );
  });

  it("returns a product's JSON-LD specs as a list when the page does not show them", async () => {
    const markdown = await markdownOf('productSpecsJsonLd');
    expect(markdown).toContain(
      '- Volume: 20 KEEP-LD-SPEC-LITRES\n- Fabric: KEEP-LD-SPEC-NYLON ripstop',
    );
    expect(markdown.match(/KEEP-LD-SPEC-NYLON/g)).toHaveLength(1);
  });

  it("returns a spec table's rows whole, without the same specs again from JSON-LD", async () => {
    const markdown = await markdownOf('productSpecsShown');
    expect(markdown).toContain('| Fabric | KEEP-LD-SPEC-NYLON ripstop |');
    expect(markdown).toContain('| Volume | 20 KEEP-LD-SPEC-LITRES |');
    expect(markdown).not.toContain('- Fabric:');
  });

  it("names a listing card's picture, which has no alt text, by the link it sits in", async () => {
    const markdown = await markdownOf('listing');
    expect(markdown).toContain(
      `[![KEEP-TILE-3 chair 3](${site.origin}/img/chair-3.jpg)](${site.origin}/chair/3)`,
    );
  });

  it('returns a lazy figure by its real source and a script link as its words', async () => {
    const markdown = await markdownOf('declaredArticle');
    expect(markdown).toContain(`![KEEP-DECLARED-FIGURE The new gates](${site.origin}/gates.jpg)`);
    expect(markdown).not.toContain('data:image');
    expect(markdown).toContain('explains them: KEEP-PLANS see the gate plans before');
    expect(markdown).not.toContain('javascript:');
  });

  it('returns prose without unfilled template placeholders or runs of spaces', async () => {
    const markdown = await markdownOf('service');
    expect(markdown).toContain('Call for a free inspection of your roof, KEEP-CALL any weekday');
    expect(markdown).not.toContain('{{');
  });
});
