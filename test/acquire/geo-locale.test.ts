import { describe, expect, it } from 'vitest';
import { DEFAULT_LOCALE, presentedLocale } from '../../src/acquire/index.ts';

describe('what a request seen from a country presents', () => {
  it('speaks the country’s likely language and keeps the time of its largest city', async () => {
    expect(await presentedLocale('de')).toEqual({
      languages: ['de-DE'],
      acceptLanguage: 'de-DE',
      locale: 'de-DE',
      timeZone: 'Europe/Berlin',
    });
    // The tz database and Intl list America/Adak, Australia/Lord_Howe and America/Noronha first.
    expect((await presentedLocale('US')).timeZone).toBe('America/New_York');
    expect((await presentedLocale('au')).timeZone).toBe('Australia/Sydney');
    expect(await presentedLocale('BR')).toMatchObject({
      locale: 'pt-BR',
      timeZone: 'America/Sao_Paulo',
    });
    expect((await presentedLocale('ch')).locale).toBe('de-CH');
  });

  it('stays American English on the machine’s clock without a country', async () => {
    expect(await presentedLocale(undefined)).toBe(DEFAULT_LOCALE);
    expect(DEFAULT_LOCALE).toEqual({
      languages: ['en-US', 'en'],
      acceptLanguage: 'en-US,en;q=0.9',
      locale: 'en-US',
    });
  });
});
