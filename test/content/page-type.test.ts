import { describe, expect, it } from 'vitest';
import { parseHtml } from '../../src/content/dom/parse.ts';
import { declaredTypes } from '../../src/content/main/page-type.ts';

const head = (inner: string, body = '') =>
  parseHtml(`<html><head><title>t</title>${inner}</head><body>${body}<p>x</p></body></html>`);
const ld = (json: string) => `<script type="application/ld+json">${json}</script>`;

describe('declaredTypes', () => {
  it('reads a forum thread, a listing and a service from JSON-LD', () => {
    expect(declaredTypes(head(ld('{"@type":"DiscussionForumPosting"}')))).toMatchObject({
      forum: true,
      listing: false,
      article: false,
    });
    expect(declaredTypes(head(ld('{"@graph":[{"@type":"ItemList"}]}'))).listing).toBe(true);
    expect(declaredTypes(head(ld('{"@type":["ProfessionalService"]}'))).service).toBe(true);
  });

  it('reads forum, listing and service kinds from microdata, but not articles', () => {
    const doc = head(
      '',
      '<div itemscope itemtype="https://schema.org/QAPage"></div><div itemtype="http://schema.org/NewsArticle"></div>',
    );
    expect(declaredTypes(doc)).toMatchObject({ forum: true, article: false });
  });

  it('reads articles and products from Open Graph, as before', () => {
    expect(declaredTypes(head('<meta property="og:type" content="article">')).article).toBe(true);
    expect(declaredTypes(head('<meta property="og:type" content="product">')).product).toBe(true);
    expect(declaredTypes(head('<meta property="og:type" content="website">'))).toEqual({
      article: false,
      product: false,
      forum: false,
      listing: false,
      service: false,
    });
  });
});
