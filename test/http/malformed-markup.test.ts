import { describe, expect, it } from 'vitest';
import { ARTICLE_WITH_TITLE, FORUM_THREAD, markers } from '../fixtures/page-types.ts';
import { type FixtureHandler, startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { useServer } from '../helpers/server.ts';

/** ARTICLE_WITH_TITLE as React's streamed rendering sends it: the article last, hidden, for a script to move into place. */
const STREAMED_ARTICLE = (() => {
  const main = /<main>[\s\S]*<\/main>/.exec(ARTICLE_WITH_TITLE)![0];
  return ARTICLE_WITH_TITLE.replace(
    main,
    '<!--$?--><template id="B:0"></template><div class="skeleton"><p>Loading the story</p></div><!--/$-->',
  ).replace('</body>', `<div hidden id="S:0">${main}</div></body>`);
})();

/**
 * Fixture pages broken the way real pages are, or left for a script to finish, each of which
 * once came back empty or cut short: browsers read them whole, and so must we.
 */
const MALFORMED: Record<string, string> = {
  'streamed-article': STREAMED_ARTICLE,
  // Hidden until a script shows it, against a flash of unstyled content.
  'hidden-until-script': ARTICLE_WITH_TITLE.replace(
    '<body>',
    '<body><div id="app" style="visibility:hidden">',
  ).replace('</body>', '</div></body>'),
  // A share bar its author never closed, so that it holds the rest of the page.
  'share-bar-left-open': `<!doctype html><html><head><title>Marathon training, phase one</title></head><body>
    <header><nav><a href="/">DROP-NAV Home</a> <a href="/plans">Plans</a></nav></header>
    <div class="entry"><div class="details"><span class="author">By A. Coach</span></div>
    <div class="share"><div class="share-button"><a href="/share">Share</a></div>
    <p>KEEP-SHARE-ONE The first three months build the habit of running, alternating jogging and walking until thirty minutes pass without a stop, at a pace that keeps breathing under control.</p>
    <p>KEEP-SHARE-TWO Races of five or ten kilometres fit this phase well, since they test the pace without the strain of the longer distances that the second phase brings.</p>
    <footer><p>DROP-FOOTER Copyright 2026 Example Running Club. All rights reserved.</p></footer>
    </body></html>`,
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
  it('streamed-article: the article takes the place of its fallback', async () => {
    for (const onlyMainContent of [true, false]) {
      const { json } = await t.api('POST', '/api/v1/scrape/single', {
        url: `${site.origin}/streamed-article.html`,
        onlyMainContent,
      });
      expect(json.markdown).not.toContain('Loading the story');
      if (!onlyMainContent)
        expect(json.markdown.indexOf('KEEP-ARTICLE-TWO')).toBeLessThan(
          json.markdown.indexOf('DROP-FOOTER'),
        );
    }
  });

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
