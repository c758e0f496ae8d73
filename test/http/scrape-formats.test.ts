import { describe, expect, it } from 'vitest';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { useServer } from '../helpers/server.ts';

const site = useFixture(() => startFixtureSite());
const t = useServer();

const scrape = (body: Record<string, unknown>) => t.api('POST', '/api/v1/scrape/single', body);

describe('scrape formats and tag selectors', () => {
  it('returns several formats from one fetch, for one charge', async () => {
    const { status, json } = await scrape({
      url: `${site.origin}/article.html`,
      formats: ['markdown', 'html', 'rawHtml', 'links'],
    });
    expect(status).toBe(200);
    expect(json.cost).toBe(0.002);
    expect(json.markdown).toContain('Twice a day the ocean pulls back');
    expect(json.markdown).not.toContain('Subscribe now');
    expect(json.html).toContain('<table');
    expect(json.html).not.toContain('Subscribe now');
    expect(json.rawHtml).toContain(
      '<title>How Tide Pools Keep Their Secrets | Coastal Notes</title>',
    );
    expect(json.rawHtml).toContain('Subscribe now');
    expect(json.links).toEqual(
      expect.arrayContaining([
        `${site.origin}/subscribe`,
        `${site.origin}/kelp`,
        `${site.origin}/privacy`,
      ]),
    );
  });

  it('links alone, and a text body in every format', async () => {
    const links = await scrape({ url: `${site.origin}/article.html`, formats: ['links'] });
    expect(Object.keys(links.json)).not.toContain('markdown');
    expect(links.json.links).toContain(`${site.origin}/news`);
    const text = await scrape({ url: `${site.origin}/notes.txt`, formats: ['markdown', 'links'] });
    expect(text.json.success).toBe(true);
    expect(text.json.links).toEqual([]);
    expect(text.json.markdown.length).toBeGreaterThan(0);
  });

  it('keeps only includeTags and drops excludeTags before conversion', async () => {
    const only = await scrape({
      url: `${site.origin}/article.html`,
      includeTags: ['table', '.byline'],
      onlyMainContent: false,
    });
    expect(only.json.markdown).toContain('By Marina Okafor');
    expect(only.json.markdown).toMatch(/\| Zone\s*\|/);
    expect(only.json.markdown).not.toContain('Twice a day the ocean pulls back');
    expect(only.json.markdown.indexOf('By Marina Okafor')).toBeLessThan(
      only.json.markdown.indexOf('Zone'),
    );
    const without = await scrape({
      url: `${site.origin}/article.html`,
      excludeTags: ['table', 'pre'],
      onlyMainContent: false,
    });
    expect(without.json.markdown).toContain('Twice a day the ocean pulls back');
    expect(without.json.markdown).not.toMatch(/\| Zone\s*\|/);
    expect(without.json.markdown).not.toContain('def density');
  });

  it('names the field of a bad selector or of type and formats together', async () => {
    const bad = await scrape({ url: `${site.origin}/article.html`, excludeTags: ['nav', 'p[['] });
    expect(bad.status).toBe(400);
    expect(bad.json.details).toEqual([
      { field: 'excludeTags[1]', message: '"p[[" is not a valid CSS selector' },
    ]);
    const both = await scrape({
      url: `${site.origin}/article.html`,
      type: 'html',
      formats: ['markdown'],
    });
    expect(both.status).toBe(400);
    expect(both.json.details[0].field).toBe('formats');
    const unknown = await scrape({ url: `${site.origin}/article.html`, formats: ['screenshot'] });
    expect(unknown.status).toBe(400);
    expect(unknown.json.details[0].field).toMatch(/^formats/);
  });

  it('applies batch-wide formats to every URL', async () => {
    const { json } = await t.api('POST', '/api/v1/scrape/batch', {
      urls: [
        `${site.origin}/article.html`,
        { url: `${site.origin}/article.html`, formats: ['links'] },
      ],
      formats: ['markdown', 'links'],
    });
    expect(json.results[0].markdown).toContain('Twice a day');
    expect(json.results[0].links.length).toBeGreaterThan(3);
    expect(json.results[1].markdown).toBeUndefined();
    expect(json.results[1].links.length).toBeGreaterThan(3);
  });
});
