import { describe, expect, it } from 'vitest';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { useServer } from '../helpers/server.ts';

const site = useFixture(() => startFixtureSite());
const t = useServer();

const scrape = (body: Record<string, unknown>) => t.api('POST', '/api/v1/scrape/single', body);

describe('POST /v1/scrape/single', () => {
  it('turns an article into main-content markdown with absolute links and GFM', async () => {
    const { status, json } = await scrape({ url: `${site.origin}/article.html` });
    expect(status).toBe(200);
    expect(json.success).toBe(true);
    expect(json.statusCode).toBe(200);
    expect(json.cost).toBe(0.002);
    expect(new Date(json.timestamp).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const md: string = json.markdown;
    expect(md).toContain('Twice a day the ocean pulls back');
    expect(md).toMatch(/^#+ Zones of the shore$/m);
    expect(md).toMatch(/^- The splash zone/m);
    expect(md).toMatch(/\| Zone\s*\| Typical resident\s*\|/);
    expect(md).toContain('```python\ndef density(count, area_m2):');
    expect(md).toContain(`](${site.origin}/glossary/organisms)`);
    expect(md).toContain(`![A tide pool at low tide](${site.origin}/images/pool.jpg)`);
    // Boilerplate around the article is gone.
    expect(md).not.toContain('Subscribe now');
    expect(md).not.toContain('premium membership');
    expect(md).not.toContain('All rights reserved');
    expect(md).not.toContain('Why gulls follow ferries');
    expect(json.html).toBeUndefined();
    expect(json.metadata).toBeUndefined();
  });

  it('converts the whole page when onlyMainContent is false', async () => {
    const { json } = await scrape({ url: `${site.origin}/article.html`, onlyMainContent: false });
    expect(json.markdown).toContain('Twice a day the ocean pulls back');
    expect(json.markdown).toContain('Subscribe now');
    expect(json.markdown).toContain('All rights reserved');
  });

  it('returns HTML: the main-content fragment, or the page as served', async () => {
    const main = await scrape({ url: `${site.origin}/article.html`, type: 'html' });
    expect(main.json.markdown).toBeUndefined();
    expect(main.json.html).toContain('Twice a day the ocean pulls back');
    expect(main.json.html).toContain('<table');
    expect(main.json.html).not.toContain('Subscribe now');
    // Readability's own wrappers come back as ordinary lower-case markup.
    expect(main.json.html).not.toMatch(/<\/?[A-Z]+[\s>]/);
    const full = await scrape({
      url: `${site.origin}/article.html`,
      type: 'html',
      onlyMainContent: false,
    });
    expect(full.json.html).toContain(
      '<title>How Tide Pools Keep Their Secrets | Coastal Notes</title>',
    );
    expect(full.json.html).toContain('Subscribe now');
  });

  it('extracts metadata when asked', async () => {
    const { json } = await scrape({ url: `${site.origin}/redirect/2`, extractMetadata: true });
    expect(json.metadata).toEqual({
      title: 'How Tide Pools Keep Their Secrets | Coastal Notes',
      description: 'A field guide to the small worlds left behind by the ebbing tide.',
      canonicalUrl: `${site.origin}/articles/tide-pools`,
      finalUrl: `${site.origin}/article.html`,
      contentType: 'text/html; charset=utf-8',
      contentLength: expect.any(Number),
    });
    expect(json.metadata.contentLength).toBeGreaterThan(2500);
  });

  it('follows a redirect chain and reports the page', async () => {
    const { json } = await scrape({ url: `${site.origin}/redirect/10` });
    expect(json.success).toBe(true);
    expect(json.url).toBe(`${site.origin}/redirect/10`);
    expect(json.markdown).toContain('Zones of the shore');
  });

  it('gives up after 10 redirects', async () => {
    const { json } = await scrape({ url: `${site.origin}/redirect/11` });
    expect(json.success).toBe(false);
    expect(json.error).toMatch(/more than 10 redirects/);
    expect(json.cost).toBe(0);
  });

  it.each(['gzip', 'br', 'deflate'])('decodes %s bodies', async (encoding) => {
    const { json } = await scrape({ url: `${site.origin}/encoded/${encoding}` });
    expect(json.success).toBe(true);
    expect(json.markdown).toContain('Twice a day the ocean pulls back');
  });

  it('decodes windows-1252 declared in the header', async () => {
    const { json } = await scrape({ url: `${site.origin}/charset/windows-1252` });
    expect(json.markdown).toContain('Café crème – résumé');
    expect(json.markdown).toContain('“voilà” and charged €4 for a crème brûlée');
  });

  it('decodes Shift_JIS declared in a <meta> tag', async () => {
    const { json } = await scrape({
      url: `${site.origin}/charset/shift_jis-meta`,
      extractMetadata: true,
    });
    expect(json.markdown).toContain('今日は晴れです。明日は雨が降るでしょう。');
    expect(json.metadata.title).toBe('東京の天気');
  });

  it('honours a UTF-8 byte-order mark', async () => {
    const { json } = await scrape({
      url: `${site.origin}/charset/utf8-bom`,
      onlyMainContent: false,
    });
    expect(json.markdown).toContain('Grüße aus Köln, naïve café.');
  });

  it.each([404, 500])(
    'reports an HTTP %i page as a failed fetch that costs nothing',
    async (code) => {
      const { status, json } = await scrape({ url: `${site.origin}/status/${code}` });
      expect(status).toBe(200);
      expect(json).toMatchObject({ success: false, statusCode: code, cost: 0 });
      expect(json.error).toContain(String(code));
      expect(json.markdown).toBeUndefined();
    },
  );

  it('times out a page that does not answer', async () => {
    const started = Date.now();
    const { json } = await scrape({ url: `${site.origin}/slow?ms=20000` });
    expect(json.success).toBe(false);
    expect(json.error).toMatch(/timed out after 5000 ms/);
    expect(Date.now() - started).toBeLessThan(9000);
  });

  it('refuses a body over the limit, compressed or not', async () => {
    const plain = await scrape({ url: `${site.origin}/huge?mb=12` });
    expect(plain.json.success).toBe(false);
    expect(plain.json.error).toMatch(/exceeds the limit/);
    const bomb = await scrape({ url: `${site.origin}/gzip-bomb` });
    expect(bomb.json.success).toBe(false);
    expect(bomb.json.error).toMatch(/exceeds the limit/);
  });

  it('returns JSON and plain text as text', async () => {
    const json = await scrape({ url: `${site.origin}/api/data.json` });
    expect(json.json.success).toBe(true);
    expect(JSON.parse(json.json.markdown)).toEqual({ name: 'fixture', items: [1, 2, 3] });
    const text = await scrape({ url: `${site.origin}/notes.txt`, type: 'html' });
    expect(text.json.html).toBe('Plain text notes.\nSecond line.');
  });

  it('fails clearly on a binary type', async () => {
    const { json } = await scrape({ url: `${site.origin}/image.png` });
    expect(json).toMatchObject({ success: false, statusCode: 200, cost: 0 });
    expect(json.error).toMatch(/image\/png/);
  });
});
