/**
 * A price as a page prints it: a currency mark before or after an amount, with the thousands and
 * decimal separators of any locale (`$1,299.99`, `1.299,00 €`, `£9`, `CHF 12.–`, `1 299 kr`).
 */

export interface Price {
  amount: number;
  /** ISO 4217 code, only when the mark names one currency (`€`, `zł`, `EUR`); `$`, `¥` and `kr` name several. */
  currency?: string;
}

/** Marks that name one currency; longer spellings first so `R$` is not read as `$`. */
const SYMBOLS: Record<string, string> = {
  US$: 'USD',
  CA$: 'CAD',
  AU$: 'AUD',
  NZ$: 'NZD',
  HK$: 'HKD',
  S$: 'SGD',
  R$: 'BRL',
  A$: 'AUD',
  C$: 'CAD',
  '€': 'EUR',
  '£': 'GBP',
  '₹': 'INR',
  '₩': 'KRW',
  '₽': 'RUB',
  '₺': 'TRY',
  '₪': 'ILS',
  '₫': 'VND',
  '₱': 'PHP',
  '฿': 'THB',
  '₴': 'UAH',
  zł: 'PLN',
  Kč: 'CZK',
  Ft: 'HUF',
  lei: 'RON',
};
const AMBIGUOUS = ['$', '¥', '円', 'kr'];
const CODES = [
  'USD',
  'EUR',
  'GBP',
  'JPY',
  'CNY',
  'INR',
  'AUD',
  'CAD',
  'CHF',
  'SEK',
  'NOK',
  'DKK',
  'PLN',
  'CZK',
  'HUF',
  'RON',
  'BRL',
  'MXN',
  'ZAR',
  'NZD',
  'SGD',
  'HKD',
  'KRW',
  'RUB',
  'TRY',
  'ILS',
  'AED',
  'SAR',
  'THB',
  'PHP',
  'IDR',
  'MYR',
  'VND',
  'UAH',
];

const literal = (s: string) => s.replace(/[$.]/g, '\\$&');
const MARK = [...Object.keys(SYMBOLS), ...AMBIGUOUS]
  .sort((a, b) => b.length - a.length)
  .map(literal)
  .concat(CODES.map((c) => `${c}\\b`))
  .join('|');
/** Grouped thousands (any of `,` `.` space, thin space, `'`) and up to two decimals, or plain digits. */
const AMOUNT = "\\d{1,3}(?:[,.'\\u00a0\\u202f ]\\d{3})+(?:[.,]\\d{1,2})?|\\d+(?:[.,]\\d{1,2})?";
/** A mark after an amount is its own only when no amount follows it (`6 $155` is 6, then $155). */
const PRICE_SOURCE = `(?<![\\w.,])(?:(${MARK})\\s?(${AMOUNT})(?![\\d%])|(${AMOUNT})\\s?(${MARK.replace(/\\b/g, '')})(?![A-Za-z]|\\s?\\d))`;
const PRICE = new RegExp(PRICE_SOURCE, 'u');
const PRICES = new RegExp(PRICE_SOURCE, 'gu');

/** Digits with their separators as a number: the last of two kinds of separator is the decimal one. */
function amountOf(text: string): number {
  const digits = text.replace(/[\s\u00a0\u202f']/g, '');
  const dot = digits.lastIndexOf('.');
  const comma = digits.lastIndexOf(',');
  if (dot >= 0 && comma >= 0) {
    const decimal = dot > comma ? '.' : ',';
    const thousands = decimal === '.' ? ',' : '.';
    return Number(digits.split(thousands).join('').replace(decimal, '.'));
  }
  const sep = dot >= 0 ? '.' : comma >= 0 ? ',' : '';
  if (!sep) return Number(digits);
  const parts = digits.split(sep);
  // One separator before exactly three digits groups thousands (`1,299`, `1.299`); else decimals.
  if (parts.length > 2 || parts[1]!.length === 3) return Number(parts.join(''));
  return Number(parts.join('.'));
}

const currencyOf = (mark: string): string | undefined =>
  SYMBOLS[mark] ?? (CODES.includes(mark) ? mark : undefined);

/** The first price in `text`, or undefined when it holds none. */
export function parsePrice(text: string): Price | undefined {
  const m = PRICE.exec(text);
  if (!m) return undefined;
  const mark = m[1] ?? m[4]!;
  const amount = amountOf(m[2] ?? m[3]!);
  if (!Number.isFinite(amount)) return undefined;
  const currency = currencyOf(mark);
  return currency ? { amount, currency } : { amount };
}

/** An amount written as a machine reads it (`content="1299.00"` of a microdata price). */
export function plainAmount(text: string | null | undefined): number | undefined {
  if (!text || !/^\s*\d+(?:\.\d+)?\s*$/.test(text)) return undefined;
  return Number(text);
}

/** `text` with its prices taken out: a card's link often reads `Name $19.99`. */
export function withoutPrices(text: string): string {
  return text.replace(PRICES, ' ').replace(/\s+/g, ' ').trim();
}
