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
    const { json } = await t.api('POST', '/api/v1/scrape/single', {
      url: `${site.origin}/types/article.html`,
    });
    expect(json.markdown.startsWith('# Harbour bridge reopens after repairs\n')).toBe(true);
    expect(json.markdown.match(/Harbour bridge reopens after repairs/g)).toHaveLength(1);
  });

  it('returns a title printed twice (a bar above the thread, then the thread) once', async () => {
    const { json } = await t.api('POST', '/api/v1/scrape/single', {
      url: `${site.origin}/types/forumTitleTwice.html`,
    });
    expect(json.markdown.match(/Sourdough starter smells of acetone/g)).toHaveLength(1);
    for (const m of markers(FORUM_TITLE_TWICE).keep) expect(json.markdown, m).toContain(m);
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
    const { json } = await t.api('POST', '/api/v1/scrape/single', {
      url: `${site.origin}/types/forumQuotingReplies.html`,
    });
    expect(json.markdown.split('KEEP-QUOTED-POST')).toHaveLength(2);
    for (const m of markers(FORUM_QUOTING_REPLIES).keep) expect(json.markdown, m).toContain(m);
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
    const { json } = await t.api('POST', '/api/v1/scrape/single', {
      url: `${site.origin}/types/productResponsiveCopies.html`,
    });
    expect(json.markdown.split('KEEP-RESPONSIVE-DESCRIPTION')).toHaveLength(2);
    expect(json.markdown).toContain('# Harbour tent, two person');
  });

  it("returns a product's JSON-LD description under its title when the page does not show it", async () => {
    const { json } = await t.api('POST', '/api/v1/scrape/single', {
      url: `${site.origin}/types/productJsonLd.html`,
    });
    expect(json.markdown).toMatch(
      /^# Harbour kettle, 1\.5 litre\n\nKEEP-LD-DESCRIPTION A steel kettle/,
    );
    expect(json.markdown.match(/KEEP-LD-DESCRIPTION/g)).toHaveLength(1);
  });

  it("returns an accordion's questions as the headings they sit in and its closed answers, without the page's other buttons", async () => {
    const { json } = await t.api('POST', '/api/v1/scrape/single', {
      url: `${site.origin}/types/serviceFaq.html`,
    });
    expect(json.markdown).toMatch(
      /### KEEP-QUESTION-ONE How often should windows be cleaned\?\n\nKEEP-ANSWER-ONE Twice a year/,
    );
    expect(json.markdown).toMatch(
      /### KEEP-QUESTION-TWO Do you clean the frames as well\?\n\nKEEP-ANSWER-TWO Frames and sills/,
    );
    expect(json.markdown).not.toContain('DROP-CONTROL');
  });

  it("keeps an identifier in a doc page's prose whole, its underscore unescaped", async () => {
    const { json } = await t.api('POST', '/api/v1/scrape/single', {
      url: `${site.origin}/types/doc.html`,
    });
    expect(json.markdown).toContain('KEEP-DOC-TWO Eviction past max_size is explained');
    expect(json.markdown).not.toContain('max\\_size');
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
    const { json } = await t.api('POST', '/api/v1/scrape/single', {
      url: `${site.origin}/types/productSpecsJsonLd.html`,
    });
    expect(json.markdown).toContain(
      '- Volume: 20 KEEP-LD-SPEC-LITRES\n- Fabric: KEEP-LD-SPEC-NYLON ripstop',
    );
    expect(json.markdown.match(/KEEP-LD-SPEC-NYLON/g)).toHaveLength(1);
  });

  it("returns a spec table's rows whole, without the same specs again from JSON-LD", async () => {
    const { json } = await t.api('POST', '/api/v1/scrape/single', {
      url: `${site.origin}/types/productSpecsShown.html`,
    });
    expect(json.markdown).toContain('| Fabric | KEEP-LD-SPEC-NYLON ripstop |');
    expect(json.markdown).toContain('| Volume | 20 KEEP-LD-SPEC-LITRES |');
    expect(json.markdown).not.toContain('- Fabric:');
  });

  it("names a listing card's picture, which has no alt text, by the link it sits in", async () => {
    const { json } = await t.api('POST', '/api/v1/scrape/single', {
      url: `${site.origin}/types/listing.html`,
    });
    expect(json.markdown).toContain(
      `[![KEEP-TILE-3 chair 3](${site.origin}/img/chair-3.jpg)](${site.origin}/chair/3)`,
    );
  });

  it('returns a lazy figure by its real source and a script link as its words', async () => {
    const { json } = await t.api('POST', '/api/v1/scrape/single', {
      url: `${site.origin}/types/declaredArticle.html`,
    });
    expect(json.markdown).toContain(
      `![KEEP-DECLARED-FIGURE The new gates](${site.origin}/gates.jpg)`,
    );
    expect(json.markdown).not.toContain('data:image');
    expect(json.markdown).toContain('explains them: KEEP-PLANS see the gate plans before');
    expect(json.markdown).not.toContain('javascript:');
  });

  it('returns prose without unfilled template placeholders or runs of spaces', async () => {
    const { json } = await t.api('POST', '/api/v1/scrape/single', {
      url: `${site.origin}/types/service.html`,
    });
    expect(json.markdown).toContain(
      'Call for a free inspection of your roof, KEEP-CALL any weekday',
    );
    expect(json.markdown).not.toContain('{{');
  });
});
