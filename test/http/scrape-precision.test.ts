import { describe, expect, it } from 'vitest';
import {
  PRODUCT_WITH_REVIEWS,
  precisionMarkers,
  STORY_WITH_FURNITURE,
} from '../fixtures/precision-pages.ts';
import { type FixtureHandler, startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { useServer } from '../helpers/server.ts';

const served =
  (html: string): FixtureHandler =>
  (_req, res) =>
    void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
const site = useFixture(() =>
  startFixtureSite({
    '/2026/02/12/river-path/': served(STORY_WITH_FURNITURE),
    '/blankets/harbour/': served(PRODUCT_WITH_REVIEWS),
  }),
);
const t = useServer();
const { keep, drop, comments } = precisionMarkers(STORY_WITH_FURNITURE);

describe('POST /v1/scrape/single on a story with furniture and comments', () => {
  const scrape = (extra: object) =>
    t.api('POST', '/api/v1/scrape/single', {
      url: `${site.origin}/2026/02/12/river-path/`,
      ...extra,
    });

  it('returns the story without its share row, author box, newsletter, teasers, shortcodes or comments', async () => {
    const { status, json } = await scrape({});
    expect(status).toBe(200);
    const md: string = json.markdown;
    for (const m of keep) expect(md, m).toContain(m);
    for (const m of [...drop, ...comments]) expect(md, m).not.toContain(m);
    expect(md).not.toContain('Share this');
    expect(md).not.toContain('jane.jpg');
    expect(md).not.toMatch(/vc_|nectar_/);
  });

  it('returns the comment thread after the story with includeComments, and no furniture', async () => {
    const { status, json } = await scrape({ includeComments: true });
    expect(status).toBe(200);
    const md: string = json.markdown;
    for (const m of [...keep, ...comments]) expect(md, m).toContain(m);
    for (const m of drop) expect(md, m).not.toContain(m);
    expect(md).not.toContain('Leave a Reply');
  });

  it('serves a cached result only to a request that asked for the same comments', async () => {
    const hour = 3_600_000;
    const without = await scrape({ maxAge: hour });
    const withComments = await scrape({ maxAge: hour, includeComments: true });
    expect(without.json.markdown).not.toContain('COMMENT-ONE');
    expect(withComments.json.markdown).toContain('COMMENT-ONE');
    expect((await scrape({ maxAge: hour })).json.markdown).toBe(without.json.markdown);
  });

  it('takes includeComments through /v2/scrape', async () => {
    const { status, json } = await t.api('POST', '/v2/scrape', {
      url: `${site.origin}/2026/02/12/river-path/`,
      includeComments: true,
    });
    expect(status).toBe(200);
    for (const m of comments) expect(json.data.markdown, m).toContain(m);
  });

  it('answers 400 naming includeComments when it is not a boolean', async () => {
    const { status, json } = await scrape({ includeComments: 'yes' });
    expect(status).toBe(400);
    expect(JSON.stringify(json)).toContain('includeComments');
  });
});

describe("POST /v1/scrape/single on a product page with its customers' reviews", () => {
  const product = precisionMarkers(PRODUCT_WITH_REVIEWS);
  const scrape = (extra: object) =>
    t.api('POST', '/api/v1/scrape/single', { url: `${site.origin}/blankets/harbour/`, ...extra });

  it('returns the description and specifications without the reviews', async () => {
    const { status, json } = await scrape({});
    expect(status).toBe(200);
    for (const m of product.keep) expect(json.markdown, m).toContain(m);
    for (const m of product.comments) expect(json.markdown, m).not.toContain(m);
  });

  it('returns the reviews after the description with includeComments', async () => {
    const { status, json } = await scrape({ includeComments: true });
    expect(status).toBe(200);
    for (const m of [...product.keep, ...product.comments]) expect(json.markdown, m).toContain(m);
  });
});
