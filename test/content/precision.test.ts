import { describe, expect, it } from 'vitest';
import { parseHtml } from '../../src/content/dom/parse.ts';
import { convertHtml } from '../../src/content/index.ts';
import { stripBoilerplate } from '../../src/content/main/boilerplate.ts';
import {
  PRODUCT_WITH_REVIEWS,
  precisionMarkers,
  STORY_WITH_FURNITURE,
} from '../fixtures/precision-pages.ts';

const URL_ = 'https://valley.example/2026/02/12/river-path/';

const markdown = (html: string, includeComments?: boolean) =>
  convertHtml({
    html,
    url: URL_,
    format: 'markdown',
    onlyMainContent: true,
    ...(includeComments === undefined ? {} : { includeComments }),
  }).content;

const { keep, drop, comments } = precisionMarkers(STORY_WITH_FURNITURE);

describe('main content of a story with furniture and comments', () => {
  for (const includeComments of [undefined, false, true]) {
    it(`keeps the story and none of its furniture (includeComments ${includeComments})`, () => {
      const md = markdown(STORY_WITH_FURNITURE, includeComments);
      for (const m of keep) expect(md, m).toContain(m);
      for (const m of drop) expect(md, m).not.toContain(m);
      expect(md).not.toContain('Share this');
      expect(md, 'author portrait').not.toContain('jane.jpg');
      expect(md, 'teaser thumbnails').not.toContain('teaser-');
      expect(md, 'avatars').not.toContain('avatar-');
      expect(md, 'reply form').not.toContain('Leave a Reply');
    });
  }

  it('leaves the comment thread out by default', () => {
    for (const md of [markdown(STORY_WITH_FURNITURE), markdown(STORY_WITH_FURNITURE, false)])
      for (const m of comments) expect(md, m).not.toContain(m);
  });

  it('keeps what readers wrote with includeComments, after the story', () => {
    const md = markdown(STORY_WITH_FURNITURE, true);
    for (const m of comments) expect(md, m).toContain(m);
    expect(md.indexOf('COMMENT-ONE')).toBeGreaterThan(md.indexOf('KEEP-STORY-FOUR'));
  });

  it("strips a page builder's shortcodes from the text", () => {
    const md = markdown(STORY_WITH_FURNITURE);
    expect(md).not.toMatch(/vc_|nectar_|width=|\[\s*\\?\]/);
  });

  it('keeps bracketed words of prose and links that are no shortcodes', () => {
    const html = `<html><head><title>Notes</title></head><body><main><p>The minutes say the pipe [sic] was replaced [1], and the survey [citation needed] never came, though the parish asked for it in 2014 and again in 2019, by letter and in person.</p><p><a href="/x">[Video]</a> of the works, filmed from the bridge by a resident on the second morning of the flood.</p></main></body></html>`;
    const md = markdown(html);
    for (const kept of ['\\[sic\\]', '\\[1\\]', '\\[citation needed\\]', '\\[Video\\]'])
      expect(md).toContain(kept);
  });

  it('removes a signup form with its pitch, whatever its box is named, but no contact form', () => {
    const doc = parseHtml(STORY_WITH_FURNITURE);
    stripBoilerplate(doc);
    expect(doc.body.textContent).not.toContain('DROP-NEWSLETTER');
    expect(doc.body.textContent).not.toContain('Get the river report');
    expect(doc.body.textContent).toContain('KEEP-STORY-ONE');
    const contact = parseHtml(
      `<html><body><main><div class="box"><h2>Write to us</h2><p>KEEP-CONTACT We answer within two days.</p><form><input type="email"><textarea></textarea></form></div></main></body></html>`,
    );
    stripBoilerplate(contact);
    expect(contact.body.textContent).toContain('KEEP-CONTACT');
  });
});

describe("main content of a product page with its customers' reviews", () => {
  const product = precisionMarkers(PRODUCT_WITH_REVIEWS);

  it('keeps the description and specifications and leaves the reviews out by default', () => {
    for (const md of [markdown(PRODUCT_WITH_REVIEWS), markdown(PRODUCT_WITH_REVIEWS, false)]) {
      for (const m of product.keep) expect(md, m).toContain(m);
      for (const m of product.comments) expect(md, m).not.toContain(m);
      expect(md).not.toContain('Was this review helpful');
    }
  });

  it('keeps what the customers wrote with includeComments, after the description', () => {
    const md = markdown(PRODUCT_WITH_REVIEWS, true);
    for (const m of [...product.keep, ...product.comments]) expect(md, m).toContain(m);
    expect(md.indexOf('COMMENT-ONE')).toBeGreaterThan(md.indexOf('KEEP-DESCRIPTION-TWO'));
  });

  it('leaves the reviews to the classifier on a page that declares no product (a service quoting its clients)', () => {
    const html = PRODUCT_WITH_REVIEWS.replace(/<meta property="og:type"[^>]*>/, '').replace(
      /<script type="application\/ld\+json">.*?<\/script>/s,
      '',
    );
    const md = markdown(html);
    for (const m of product.keep) expect(md, m).toContain(m);
    expect(md).toContain('COMMENT-ONE');
  });
});
