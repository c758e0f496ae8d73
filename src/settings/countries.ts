import countries from 'i18n-iso-countries';

/** ISO 3166-1 alpha-2 codes, from a maintained list rather than one copied here. */
const ALPHA2 = new Set(Object.keys(countries.getAlpha2Codes()));

/** The upper-case code when `value` is an ISO 3166-1 alpha-2 country code in any case, else undefined. */
export function isoCountry(value: string): string | undefined {
  const code = value.trim().toUpperCase();
  return /^[A-Z]{2}$/.test(code) && ALPHA2.has(code) ? code : undefined;
}
