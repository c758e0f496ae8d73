import { describe, expect, it } from 'vitest';
import { FOLDS, foldsOf, siteOf } from '../../bench/main-content/folds.ts';

const page = (id: string, url: string) => ({ id, url, set: 'wcxb' as const });

describe('held-out folds of the main-content bench', () => {
  it('names a page by its registrable domain, a hosting platform counting as one site', () => {
    expect(siteOf(page('1', 'https://news.example.co.uk/a/b'))).toBe('example.co.uk');
    expect(siteOf(page('2', 'https://www.example.com/x'))).toBe('example.com');
    expect(siteOf(page('3', 'https://alice.blogspot.com/post'))).toBe('blogspot.com');
    expect(siteOf(page('4', 'http://192.0.2.7/x'))).toBe('192.0.2.7');
    expect(siteOf(page('5', ''))).toBe('wcxb:5');
  });

  it('puts every page of a site in one fold, whatever pages sit between them', () => {
    const pages = [
      page('a', 'https://shop.example.com/1'),
      page('b', 'https://other.org/1'),
      page('c', 'https://www.example.com/2'),
      page('d', 'https://third.net/1'),
      page('e', 'https://blog.example.com/3'),
    ];
    const folds = foldsOf(pages);
    expect(folds[0]).toBe(folds[2]);
    expect(folds[0]).toBe(folds[4]);
    for (const f of folds) expect(f >= 0 && f < FOLDS).toBe(true);
  });

  it('gives a site the same fold in every selection of pages and every run', () => {
    const many = Array.from({ length: 200 }, (_, i) => page(String(i), `https://site${i}.com/`));
    const all = foldsOf(many);
    const some = foldsOf(many.filter((_, i) => i % 3 === 0));
    expect(some).toEqual(all.filter((_, i) => i % 3 === 0));
    expect(foldsOf(many)).toEqual(all);
    // Hashing spreads 200 sites over every fold.
    expect(new Set(all).size).toBe(FOLDS);
  });

  it('leaves pages without a URL alone, each its own group', () => {
    const noUrl = Array.from({ length: 50 }, (_, i) => page(String(i), ''));
    expect(new Set(foldsOf(noUrl)).size).toBeGreaterThan(1);
  });

  it('cuts by page order when asked, as the figures were first cut', () => {
    const same = Array.from({ length: 7 }, (_, i) => page(String(i), 'https://example.com/'));
    expect(foldsOf(same, 'page')).toEqual([0, 1, 2, 3, 4, 0, 1]);
    expect(new Set(foldsOf(same)).size).toBe(1);
  });
});
