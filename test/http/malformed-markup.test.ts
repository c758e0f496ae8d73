import { describe, expect, it } from 'vitest';
import { ARTICLE_WITH_TITLE, FORUM_THREAD, markers } from '../fixtures/page-types.ts';
import { type FixtureHandler, startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { useServer } from '../helpers/server.ts';

/**
 * Fixture pages broken the way real pages are, each of which once came back empty or cut short:
 * browsers read them whole, and so must we.
 */
const MALFORMED: Record<string, string> = {
  // A forum theme's stray `<![CDATA[` ahead of the posts, never closed: a browser ends it at the next `>`.
  'stray-cdata': FORUM_THREAD.replace('<body>', '<body><![CDATA[\n\n<div id="jumpToTop"></div>'),
  // A plugin's style printed before the doctype.
  'markup-before-root': `<style>.promo{display:none}</style>\n${ARTICLE_WITH_TITLE}`,
  // A template that closes the page halfway through the article and goes on.
  'closed-halfway': ARTICLE_WITH_TITLE.replace(
    '<p><span><span>KEEP-ARTICLE-NESTED',
    '</body></html><p><span><span>KEEP-ARTICLE-NESTED',
  ),
};

const page =
  (html: string): FixtureHandler =>
  (_req, res) =>
    void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
const site = useFixture(() =>
  startFixtureSite(
    Object.fromEntries(
      Object.entries(MALFORMED).map(([name, html]) => [`/${name}.html`, page(html)]),
    ),
  ),
);
const t = useServer();

describe('POST /v1/scrape/single on malformed markup', () => {
  for (const [name, html] of Object.entries(MALFORMED)) {
    it(`${name}: returns the main content whole, without the furniture`, async () => {
      const { status, json } = await t.api('POST', '/api/v1/scrape/single', {
        url: `${site.origin}/${name}.html`,
      });
      expect(status).toBe(200);
      const { keep, drop } = markers(html);
      expect(keep.length).toBeGreaterThan(1);
      for (const m of keep) expect(json.markdown, m).toContain(m);
      for (const m of drop) expect(json.markdown, m).not.toContain(m);
    });

    it(`${name}: returns the whole page with onlyMainContent false`, async () => {
      const { json } = await t.api('POST', '/api/v1/scrape/single', {
        url: `${site.origin}/${name}.html`,
        onlyMainContent: false,
      });
      const { keep, drop } = markers(html);
      for (const m of [...keep, ...drop]) expect(json.markdown, m).toContain(m);
    });
  }
});
