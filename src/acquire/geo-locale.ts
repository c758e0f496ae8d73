/**
 * The language and time zone a request presents when it asks to be seen from a country, so that
 * what a site reads of the client (Accept-Language, navigator.languages, Intl's locale and zone,
 * Date's offset) tells the same story as the address it comes from. Without a country: American
 * English and the machine's own zone, as before.
 */
export interface PresentedLocale {
  /** navigator.languages, most preferred first. */
  languages: string[];
  /** The same list as Chrome writes it in Accept-Language, with its falling q-values. */
  acceptLanguage: string;
  /** Intl's default locale: the first language. */
  locale: string;
  /** An IANA zone of the country; undefined leaves the machine's. */
  timeZone?: string;
}

const ENGLISH = ['en-US', 'en'];

/** Chrome's spelling: the first language bare, each next one 0.1 lower, never under 0.1. */
function acceptLanguageOf(languages: string[]): string {
  return languages
    .map((lang, i) => (i === 0 ? lang : `${lang};q=${Math.max(0.1, 1 - i / 10).toFixed(1)}`))
    .join(',');
}

export const DEFAULT_LOCALE: PresentedLocale = {
  languages: ENGLISH,
  acceptLanguage: acceptLanguageOf(ENGLISH),
  locale: ENGLISH[0]!,
};

let zones: Promise<Map<string, string>> | undefined;

/** The rows of city-timezones' table; its declarations leave the table itself untyped. */
interface CityTable {
  default: { cityMapping: Array<{ iso2: unknown; pop: number; timezone?: string }> };
}

/**
 * Each country's zone: the one of its most populous city. Neither Intl nor the tz database ranks
 * a country's zones (both list them alphabetically or east to west, which puts America/Adak first
 * for the United States), and a proxy's exit is likeliest where most people live. Loaded on first
 * use: the city table is 2 MB that a server without geo requests never needs.
 */
function countryZones(): Promise<Map<string, string>> {
  zones ??= (import('city-timezones') as unknown as Promise<CityTable>).then(
    ({ default: table }) => {
      const best = new Map<string, { pop: number; timezone: string }>();
      for (const { iso2, pop, timezone } of table.cityMapping) {
        // Places without a code of their own (Kosovo, Somaliland) carry -99.
        if (typeof iso2 !== 'string' || !timezone) continue;
        const code = iso2.toUpperCase();
        const seen = best.get(code);
        if (!seen || pop > seen.pop) best.set(code, { pop, timezone });
      }
      return new Map([...best].map(([code, city]) => [code, city.timezone]));
    },
  );
  return zones;
}

/** The zone Intl knows for `country` when the city table has none (ICU's first, any of its own). */
function intlZone(country: string): string | undefined {
  const info = new Intl.Locale('und', { region: country }) as Intl.Locale & {
    getTimeZones?(): string[];
  };
  return info.getTimeZones?.()[0];
}

/**
 * What a request seen from `country` (ISO 3166-1 alpha-2, any case) presents: the country's likely
 * language (CLDR's likely subtags, as ICU gives them) alone, and the zone of its largest city. One
 * language, not the longer list a browser set up in it often has (`de-DE`, `de`, `en-US`, `en`):
 * a page's workers can be given only one (browser/fingerprint.ts), and a list that differs
 * between a page and its workers is what detectors look for.
 */
export async function presentedLocale(country: string | undefined): Promise<PresentedLocale> {
  if (!country) return DEFAULT_LOCALE;
  const region = country.toUpperCase();
  const likely = new Intl.Locale('und', { region }).maximize();
  const locale = `${likely.language}-${region}`;
  const languages = [locale];
  const timeZone = (await countryZones()).get(region) ?? intlZone(region);
  return {
    languages,
    acceptLanguage: acceptLanguageOf(languages),
    locale,
    ...(timeZone ? { timeZone } : {}),
  };
}
