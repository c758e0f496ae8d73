import { describe, expect, it } from 'vitest';
import { nameReader } from '../../src/content/main/block-names.ts';

describe('class and id names read for threads and reviews', () => {
  const read = nameReader();

  it("names a product's review list and its widgets reviews", () => {
    for (const names of [
      'reviews',
      'product-reviews',
      'customer-reviews_feature_div',
      'user_reviews',
      'jdgm-widget judgeme_product_reviews',
      'section okendo-reviews',
    ])
      expect(read(names).reviews, names).toBe(true);
  });

  it("does not name a blog's tag or category, nor a single review, reviews", () => {
    for (const names of [
      'post tag-reviews',
      'category-reviews',
      'product_cat-reviews',
      'review',
      'preview',
    ])
      expect(read(names).reviews, names).toBe(false);
  });

  it('keeps a comment thread apart from the reviews', () => {
    expect(read('comments-area').thread).toBe(true);
    expect(read('comments-area').reviews).toBe(false);
    expect(read('product-reviews').thread).toBe(false);
  });
});
