import { describe, expect, it } from 'vitest';
import { parsePrice, withoutPrices } from '../../src/content/convert/price.ts';

describe('parsePrice', () => {
  it.each([
    ['$1,299.99', { amount: 1299.99 }],
    ['1.299,00 €', { amount: 1299, currency: 'EUR' }],
    ['12,50 €', { amount: 12.5, currency: 'EUR' }],
    ['£9', { amount: 9, currency: 'GBP' }],
    ['CHF 12.–', { amount: 12, currency: 'CHF' }],
    ['1 299 kr', { amount: 1299 }],
    ['R$ 10,00', { amount: 10, currency: 'BRL' }],
    ['US$5.5', { amount: 5.5, currency: 'USD' }],
    ['Was 99 zł', { amount: 99, currency: 'PLN' }],
    ['from ¥1,200', { amount: 1200 }],
    ['USD 10', { amount: 10, currency: 'USD' }],
  ])('reads %s', (text, price) => {
    expect(parsePrice(text)).toEqual(price);
  });

  it('reads no price in counts, years and model numbers', () => {
    for (const text of ['Only 3 left', 'Since 2004', 'Speedgoat 6', 'Size 42, 3 colours'])
      expect(parsePrice(text)).toBeUndefined();
  });

  it('takes a mark before the next amount as that amount’s, not the one before it', () => {
    expect(parsePrice('Speedgoat 6 $155.00')).toEqual({ amount: 155 });
    expect(withoutPrices('Reflect Earrings $490.00')).toBe('Reflect Earrings');
  });
});
