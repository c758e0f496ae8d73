import { describe, expect, it } from 'vitest';
import { nameReader } from '../../src/content/main/block-names.ts';

describe('class and id names read for threads and reviews', () => {
  const read = nameReader();

  it.each([
    'reviews',
    'product-reviews',
    'customer-reviews_feature_div',
    'user_reviews',
    'jdgm-widget judgeme_product_reviews',
    'section okendo-reviews',
  ])("reads %j as a product's review list or its widget", (names) => {
    expect(read(names).reviews).toBe(true);
  });

  it.each(['post tag-reviews', 'category-reviews', 'product_cat-reviews', 'review', 'preview'])(
    "does not read %j (a blog's tag or category, a single review) as reviews",
    (names) => {
      expect(read(names).reviews).toBe(false);
    },
  );

  it('keeps a comment thread apart from the reviews', () => {
    expect(read('comments-area').thread).toBe(true);
    expect(read('comments-area').reviews).toBe(false);
    expect(read('product-reviews').thread).toBe(false);
  });
});
